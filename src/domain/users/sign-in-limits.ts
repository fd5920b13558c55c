/** Sign-in attempts checked within `windowMs`, per email and per address (failures stay counted). */
export interface SignInLimits {
  readonly windowMs: number;
  readonly perUser: number;
  readonly perAddress: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  windowMs: 15 * 60_000,
  perUser: 5,
  perAddress: 20,
};
