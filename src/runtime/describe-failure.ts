import { DomainError } from '../domain/errors.js';
import { ExplainedError } from '../domain/explained-error.js';
import { describeError } from './start-steps.js';

/** Deep enough for any chain Nok builds; a longer or circular chain is cut here. */
const MAX_CAUSES = 8;

/**
 * What the command line prints for the error that ended a command. An `ExplainedError` is its
 * message, one line. An unexpected error is its name and message, then each `cause` in turn
 * ("caused by: …"), each with the stack frames of where it was thrown, so that an operator, or
 * whoever they ask, can act without a debugger. A `DomainError` is a rule of Nok saying no: its
 * message, with no frames.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ExplainedError) return describeError(error);
  const lines: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && !seen.has(current) && seen.size <= MAX_CAUSES) {
    seen.add(current);
    lines.push(`${lines.length === 0 ? '' : 'caused by: '}${headline(current)}`);
    if (current instanceof Error && !(current instanceof DomainError)) {
      lines.push(...frames(current));
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  if (current !== undefined) lines.push('caused by: … (chain cut)');
  return lines.join('\n');
}

function headline(error: unknown): string {
  const text = describeError(error);
  if (!(error instanceof Error) || error instanceof DomainError) return text;
  return error.name && error.name !== 'Error' ? `${error.name}: ${text}` : text;
}

/** The "at …" lines of an error's stack, as V8 writes them. */
function frames(error: Error): string[] {
  return (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
}
