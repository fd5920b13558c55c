import type { AccountStore } from '../accounts/account-store.js';
import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import { requireAccount } from '../accounts/require-account.js';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import { countCharacters, LIMITS } from '../limits.js';
import type { Template, TemplateStore } from './template-store.js';
import { templateVariables } from './template-variables.js';

/** The longest template name. */
export const TEMPLATE_NAME_MAX = 100;

/** A template's name and body as the rules allow them (the body no longer than send content). */
export function checkTemplate(input: { name: string; body: string }): {
  name: string;
  body: string;
} {
  const name = input.name.trim();
  if (name.length === 0) throw invalidParameter('the template name must not be empty');
  if (countCharacters(name) > TEMPLATE_NAME_MAX)
    throw invalidParameter(`the template name is longer than ${TEMPLATE_NAME_MAX} characters`);
  if (input.body.trim().length === 0) throw invalidParameter('the template body must not be empty');
  if (input.body.includes('\u0000'))
    throw invalidParameter('the template body must not contain the NUL character (\\u0000)');
  if (countCharacters(input.body) > LIMITS.sendContentChars) {
    throw new DomainError(
      'CONTENT_TOO_LONG',
      `the template body is longer than ${LIMITS.sendContentChars} characters`,
    );
  }
  return { name, body: input.body };
}

/** Saves a message template; its `{{name}}` placeholders are filled by `variables` on send. */
export async function createTemplate(
  store: AccountStore & Transactor<TemplateStore & AuditStore>,
  input: { accountId: number; name: string; body: string; nowMs: number; actor?: AuditActor },
): Promise<{ template: Template; variables: string[] }> {
  const { name, body } = checkTemplate(input);
  await requireAccount(store, input.accountId);
  return store.transaction(async (tx) => {
    const template = await tx.createTemplate({
      accountId: input.accountId,
      name,
      body,
      nowMs: input.nowMs,
    });
    await recordAudit(tx, {
      ...(input.actor ?? SYSTEM_ACTOR),
      accountId: input.accountId,
      action: 'template.create',
      targetType: 'template',
      targetId: template.id,
      detail: { name },
      at: input.nowMs,
    });
    return { template, variables: templateVariables(template.body) };
  });
}
