import { after, before, describe } from 'node:test';
import '../../support/console-people-resources.js';
import '../../support/console-sender-resources.js';
import '../../support/console-contacts-resources.js';
import '../../support/console-compose-resources.js';
import '../../support/console-webhook-resources.js';
import { consoleSecuritySuite } from '../../support/console-security-suite.js';
import { testEngines } from '../../support/engines.js';
import { createHarness, type Harness } from '../../support/harness.js';

for (const engine of testEngines()) {
  describe(`console API security (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());
    consoleSecuritySuite(() => h);
  });
}
