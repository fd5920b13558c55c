/**
 * The owner of the bench account (support/nok-server.ts seeds them), for benches of the
 * console's routes, which take a cookie session rather than an API key. A module of its own:
 * importing nok-server.ts would start a server.
 */
export const BENCH_OWNER = {
  email: 'bench-owner@example.test',
  password: 'bench owner password 2026',
} as const;
