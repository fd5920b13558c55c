import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DomainError } from '../../src/domain/errors.js';
import { removeMember } from '../../src/domain/users/remove-member.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

for (const engine of testEngines()) {
  describe(`two owners removing each other at once (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('leaves the account one owner, however the two transactions interleave', async () => {
      for (let round = 0; round < 10; round++) {
        const account = await h.account({ credits: 0 });
        const [a, b] = await Promise.all(
          ['a', 'b'].map((who) =>
            h.store.createUser({
              email: `${who}${round}@race.example`,
              name: who,
              role: 'owner',
              accountId: account.id,
              passwordHash: null,
              nowMs: h.clock.now(),
            }),
          ),
        );
        const remove = (target: number, actor: number) =>
          removeMember(h.store, {
            userId: target,
            accountId: account.id,
            nowMs: h.clock.now(),
            actor: { actorUserId: actor, ip: '127.0.0.1' },
          });
        const outcomes = await Promise.allSettled([remove(b!.id, a!.id), remove(a!.id, b!.id)]);
        const removed = outcomes.filter((o) => o.status === 'fulfilled');
        const refused = outcomes.filter((o) => o.status === 'rejected');
        assert.equal(removed.length, 1, `round ${round}: ${removed.length} removals went through`);
        const reason = (refused[0] as PromiseRejectedResult).reason as DomainError;
        assert.equal(reason.code, 'NOT_REMOVABLE');
        const owners = await h.store.listUsers({ accountId: account.id, role: 'owner' });
        assert.equal(owners.length, 1);
      }
    });
  });
}
