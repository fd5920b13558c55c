import { requireAccount } from '../accounts/require-account.js';
import { invalidParameter } from '../errors.js';
import type { Store, Template } from '../ports.js';
import { templateVariables } from './template-variables.js';

/** Saves a message template; its `{{name}}` placeholders are filled by `variables` on send. */
export async function createTemplate(
  store: Store,
  input: { accountId: number; name: string; body: string; nowMs: number },
): Promise<{ template: Template; variables: string[] }> {
  const name = input.name.trim();
  if (name.length === 0) throw invalidParameter('the template name must not be empty');
  if (input.body.trim().length === 0) throw invalidParameter('the template body must not be empty');
  await requireAccount(store, input.accountId);
  const template = await store.createTemplate({
    accountId: input.accountId,
    name,
    body: input.body,
    nowMs: input.nowMs,
  });
  return { template, variables: templateVariables(template.body) };
}
