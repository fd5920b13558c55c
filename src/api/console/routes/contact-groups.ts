import type { FastifyPluginAsync } from 'fastify';
import {
  deleteContactGroup,
  renameContactGroup,
} from '../../../domain/contacts/change-contact-group.js';
import { createContactGroup } from '../../../domain/contacts/create-contact-group.js';
import { findOwnContactGroup } from '../../../domain/contacts/find-own-contact-group.js';
import {
  addGroupMembers,
  importContacts,
  removeGroupMembers,
} from '../../../domain/contacts/import-contacts.js';
import { numberSearch } from '../../../domain/contacts/number-search.js';
import { NUMBER_LIST_TYPES } from '../contract/number-imports.js';
import type { ConsoleDeps } from '../console-deps.js';
import { consoleRoute } from '../console-route.js';
import { auditActor, consoleAccountId } from '../console-session.js';
import { acceptNumberLists, numberRowsOf } from '../number-list-body.js';

const member = { access: { role: 'member' } } as const;
const tags = ['contact groups'];

/**
 * An account's contact groups (members and owners): list (the compose page's picker), create,
 * rename, delete, browse and search members, add and remove them, and import a number list
 * streamed as the request body.
 */
export const contactGroupRoutes: FastifyPluginAsync<ConsoleDeps> = async (
  app,
  { store, clock },
) => {
  acceptNumberLists(app);

  consoleRoute(
    app,
    'GET /contact-groups',
    {
      tags,
      summary: "The account's contact groups with their member counts, by name",
      config: member,
    },
    async (request) => {
      const groups = await store.listContactGroups(consoleAccountId(request));
      return {
        data: groups.map((group) => ({ id: group.id, name: group.name, size: group.size })),
      };
    },
  );

  consoleRoute(
    app,
    'POST /contact-groups',
    {
      tags,
      summary: 'Create an empty contact group',
      config: member,
    },
    async (request) => {
      const { group } = await createContactGroup(store, {
        accountId: consoleAccountId(request),
        name: request.body.name,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return { id: group.id, name: group.name, size: 0 };
    },
  );

  consoleRoute(
    app,
    'GET /contact-groups/:groupId',
    {
      tags,
      summary: 'One contact group',
      config: member,
    },
    async (request) => {
      const group = await findOwnContactGroup(
        store,
        consoleAccountId(request),
        request.params.groupId,
      );
      return { id: group.id, name: group.name, size: await store.contactCount(group.id) };
    },
  );

  consoleRoute(
    app,
    'PATCH /contact-groups/:groupId',
    {
      tags,
      summary: 'Rename a contact group',
      config: member,
    },
    async (request) => {
      const group = await renameContactGroup(store, {
        accountId: consoleAccountId(request),
        groupId: request.params.groupId,
        name: request.body.name,
        nowMs: clock.now(),
        actor: auditActor(request),
      });
      return { id: group.id, name: group.name };
    },
  );

  consoleRoute(
    app,
    'DELETE /contact-groups/:groupId',
    {
      tags,
      summary: 'Delete a contact group and its members',
      description:
        'Messages already accepted for the group, scheduled ones too, keep the numbers they were accepted with and are sent as accepted.',
      config: member,
    },
    async (request) =>
      deleteContactGroup(store, {
        accountId: consoleAccountId(request),
        groupId: request.params.groupId,
        nowMs: clock.now(),
        actor: auditActor(request),
      }),
  );

  consoleRoute(
    app,
    'GET /contact-groups/:groupId/members',
    {
      tags,
      summary: 'Members of a contact group, in number order, searched by digits',
      config: member,
    },
    async (request) => {
      const { offset, limit, search } = request.query;
      const group = await findOwnContactGroup(
        store,
        consoleAccountId(request),
        request.params.groupId,
      );
      const page = await store.contactPage(group.id, {
        search: numberSearch(search),
        offset,
        limit,
      });
      return {
        data: page.items.map((msisdn) => ({ msisdn })),
        total: page.total,
        offset,
        limit,
      };
    },
  );

  consoleRoute(
    app,
    'POST /contact-groups/:groupId/members',
    {
      tags,
      summary: 'Add numbers to a contact group',
      description: 'All or nothing: one malformed number refuses the list (INVALID_NUMBER).',
      config: member,
    },
    async (request) =>
      addGroupMembers(store, {
        accountId: consoleAccountId(request),
        groupId: request.params.groupId,
        numbers: request.body.numbers,
        nowMs: clock.now(),
        actor: auditActor(request),
      }),
  );

  consoleRoute(
    app,
    'DELETE /contact-groups/:groupId/members',
    {
      tags,
      summary: 'Remove numbers from a contact group',
      config: member,
    },
    async (request) =>
      removeGroupMembers(store, {
        accountId: consoleAccountId(request),
        groupId: request.params.groupId,
        numbers: request.body.numbers,
        nowMs: clock.now(),
        actor: auditActor(request),
      }),
  );

  consoleRoute(
    app,
    'POST /contact-groups/:groupId/import',
    {
      tags,
      summary: 'Import a number list into a contact group',
      description: `The list is the request body (${NUMBER_LIST_TYPES.join(', ')}): one number a line, or CSV with the numbers in the column its header names (phone, mobile, msisdn, number, เบอร์…; else the first); a first line without digits is a header. It is read as it arrives. Valid numbers are added; the report counts numbers already in the group, repeats within the file, and rejected lines (the first 100 quoted with their line numbers and why). All or nothing: a list that cannot be read changes nothing.`,
      config: member,
    },
    async (request) => {
      const accountId = consoleAccountId(request);
      await findOwnContactGroup(store, accountId, request.params.groupId);
      return importContacts(store, {
        accountId,
        groupId: request.params.groupId,
        rows: numberRowsOf(request),
        nowMs: clock.now(),
        actor: auditActor(request),
      });
    },
  );
};
