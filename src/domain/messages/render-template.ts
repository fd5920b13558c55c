import { DomainError } from '../errors.js';

export const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Variables are string keys with string, number or boolean values. */
export type TemplateVariables = Record<string, string | number | boolean>;

/** Fills `{{name}}` placeholders; every placeholder must have a variable. */
export function renderTemplate(body: string, variables: TemplateVariables): string {
  const missing = new Set<string>();
  const text = body.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.hasOwn(variables, name)) {
      missing.add(name);
      return '';
    }
    return String(variables[name]);
  });
  if (missing.size > 0) {
    throw new DomainError(
      'TEMPLATE_VARIABLE_MISSING',
      `The template needs variables that were not given: ${[...missing].join(', ')}`,
    );
  }
  return text;
}
