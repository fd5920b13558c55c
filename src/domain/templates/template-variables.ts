import { PLACEHOLDER } from '../messages/render-template.js';

/** The distinct `{{name}}` placeholders of a template body, in order of first appearance. */
export function templateVariables(body: string): string[] {
  // matchAll works on a copy of the global regex, so the shared lastIndex is never touched.
  return [...new Set([...body.matchAll(PLACEHOLDER)].map((match) => match[1] as string))];
}
