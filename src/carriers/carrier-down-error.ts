/**
 * No bind of this carrier can submit right now (none bound, or the carrier's binds are
 * stopping). Nothing was sent: the dispatcher fails the part over to the next carrier or retries
 * it later.
 */
export class CarrierDownError extends Error {
  override name = 'CarrierDownError';
  constructor(
    readonly carrier: string,
    readonly reason: string,
  ) {
    super(`carrier ${carrier} has no bind that can submit (${reason}); use another or retry later`);
  }
}
