// The simulator's PRNG, for property tests and benchmarks: the same inputs on every run.
export { seededRandom } from '../../src/smsc/seeded-random.js';
