import { DomainError } from '../errors.js';
import type { Template, TemplateStore } from './template-store.js';

/** The account's template: NOT_FOUND when there is none, FORBIDDEN when it is another account's. */
export async function findOwnTemplate(
  store: TemplateStore,
  accountId: number,
  templateId: number,
): Promise<Template> {
  const template = await store.findTemplate(templateId);
  if (!template) throw new DomainError('NOT_FOUND', `Template ${templateId} does not exist`);
  if (template.accountId !== accountId) {
    throw new DomainError('FORBIDDEN', `Template ${templateId} belongs to another account`);
  }
  return template;
}
