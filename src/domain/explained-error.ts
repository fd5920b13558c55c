/**
 * A failure whose message already tells an operator what failed, why and which setting to
 * change (the reason of its cause included), so the command line prints the message alone, as
 * one line. Anything else that ends a command is unexpected, and is printed with its causes and
 * stack (`describeFailure`).
 */
export class ExplainedError extends Error {
  override readonly name: string = 'ExplainedError';
}
