import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Template, TemplateStore } from './template-store.js';
import { checkTemplate } from './create-template.js';
import { findOwnTemplate } from './find-own-template.js';

interface TemplateChange {
  readonly accountId: number;
  readonly templateId: number;
  readonly nowMs: number;
  readonly actor: AuditActor;
}

/**
 * Rewrites one of the account's templates. A message already accepted from it keeps the text it
 * was rendered to at accept time.
 */
export async function updateTemplate(
  store: Transactor<TemplateStore & AuditStore>,
  input: TemplateChange & { name: string; body: string },
): Promise<Template> {
  const fields = checkTemplate(input);
  return store.transaction(async (tx) => {
    const before = await findOwnTemplate(tx, input.accountId, input.templateId);
    const template = await tx.updateTemplate(before.id, fields);
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'template.update',
      targetType: 'template',
      targetId: template.id,
      detail: { name: template.name, bodyChanged: before.body !== template.body },
      at: input.nowMs,
    });
    return template;
  });
}

/** Deletes one of the account's templates; sends already accepted from it are unchanged. */
export async function deleteTemplate(
  store: Transactor<TemplateStore & AuditStore>,
  input: TemplateChange,
): Promise<void> {
  await store.transaction(async (tx) => {
    const template = await findOwnTemplate(tx, input.accountId, input.templateId);
    await tx.deleteTemplate(template.id);
    await recordAudit(tx, {
      ...input.actor,
      accountId: input.accountId,
      action: 'template.delete',
      targetType: 'template',
      targetId: template.id,
      detail: { name: template.name },
      at: input.nowMs,
    });
  });
}
