import { countParts } from '../messages/message-parts.js';
import { renderTemplate, type TemplateVariables } from '../messages/render-template.js';
import { countCharacters } from '../limits.js';
import { templateVariables } from './template-variables.js';

export interface TemplatePreview {
  /** The text as it would be sent; a placeholder without a value is left as written. */
  readonly text: string;
  readonly variables: string[];
  /** Placeholders that were given no value. */
  readonly missing: string[];
  readonly characters: number;
  /** Parts as charged (70 / 67 UTF-16 units). */
  readonly parts: number;
}

/**
 * Fills a template body the way send does (`renderTemplate`), for a preview while it is written
 * or chosen: a placeholder with no value yet shows as itself instead of refusing.
 */
export function previewTemplate(body: string, given: TemplateVariables): TemplatePreview {
  const variables = templateVariables(body);
  const missing = variables.filter((name) => !Object.hasOwn(given, name) || given[name] === '');
  const values: TemplateVariables = { ...given };
  for (const name of missing) values[name] = `{{${name}}}`;
  const text = renderTemplate(body, values);
  return { text, variables, missing, characters: countCharacters(text), parts: countParts(text) };
}
