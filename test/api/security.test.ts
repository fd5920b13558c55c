import { after, before, describe } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { securitySuite } from '../support/security-suite.js';

for (const engine of testEngines()) {
  describe(`security of every /api/v2 route (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    securitySuite(() => h);
  });
}
