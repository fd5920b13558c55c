import { DomainError } from '../errors.js';

/** A scheduled send's instant must lie in the future (its form is the request schema's). */
export function checkScheduledTime(instant: number, nowMs: number): number {
  if (instant <= nowMs)
    throw new DomainError('INVALID_SCHEDULED_TIME', 'scheduledTime must be in the future');
  return instant;
}
