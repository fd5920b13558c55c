// Path parameters and bodies of the contact group, template and blocklist routes, and the
// groups and templates request fields name, for the console security suite. Resources go
// straight to the store: making one adds no audit line.
import {
  CONSOLE_BODIES,
  CONSOLE_FIELD_RESOURCES,
  CONSOLE_RESOURCES,
} from './console-security-suite.js';

let counter = 0;

CONSOLE_RESOURCES.groupId = async (h, of) => {
  const group = await h.store.createContactGroup({
    accountId: of.account!.id,
    name: `Suite group ${++counter}`,
    nowMs: h.clock.now(),
  });
  await h.store.addContacts(group.id, ['66812345678']);
  return String(group.id);
};
CONSOLE_RESOURCES.templateId = async (h, of) => {
  const template = await h.store.createTemplate({
    accountId: of.account!.id,
    name: `Suite template ${++counter}`,
    body: 'Hello {{name}}',
    nowMs: h.clock.now(),
  });
  return String(template.id);
};

CONSOLE_FIELD_RESOURCES['contact-group'] = async (h, of) =>
  Number(await CONSOLE_RESOURCES.groupId!(h, of));
// No placeholder: a send from it needs no variables.
CONSOLE_FIELD_RESOURCES.template = async (h, of) => {
  const template = await h.store.createTemplate({
    accountId: of.account!.id,
    name: `Suite template ${++counter}`,
    body: 'Hello from the suite',
    nowMs: h.clock.now(),
  });
  return template.id;
};

const numbers = async () => ({ numbers: ['0812345678'] });
Object.assign(CONSOLE_BODIES, {
  'POST /console/api/contact-groups': async () => ({ name: 'Suite group' }),
  'PATCH /console/api/contact-groups/:groupId': async () => ({ name: 'Suite group renamed' }),
  'POST /console/api/contact-groups/:groupId/members': numbers,
  'DELETE /console/api/contact-groups/:groupId/members': numbers,
  'POST /console/api/templates': async () => ({ name: 'Suite', body: 'Hi {{name}}' }),
  'PUT /console/api/templates/:templateId': async () => ({ name: 'Suite', body: 'Hi {{name}}' }),
  'POST /console/api/templates/preview': async () => ({ body: 'Hi {{name}}' }),
  'POST /console/api/blocklist': numbers,
  'DELETE /console/api/blocklist': numbers,
  'POST /console/api/admin/blocklist': numbers,
  'DELETE /console/api/admin/blocklist': numbers,
});
