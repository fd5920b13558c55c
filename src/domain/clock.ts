/** Time as the domain sees it; tests pass a fake. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
