import assert from 'node:assert/strict';
import type { Harness } from '../harness.js';
import type { ActorModel, ActorWorld } from './model.js';
import type { Actor } from './scenario.js';
import { fromLedger } from '../../../src/storage/from-ledger.js';

/** Id → uuid of both accounts' messages, to read the release's answer (message ids). */
export async function messageIds(
  h: Harness,
  worlds: Record<Actor, ActorWorld>,
): Promise<Map<number, string>> {
  const rows = await h.db.database.db
    .selectFrom('messages')
    .select(['id', 'uuid'])
    .where('account_id', 'in', [worlds.a.accountId, worlds.b.accountId])
    .execute();
  return new Map(rows.map((row) => [Number(row.id), row.uuid]));
}

/** The account as stored must be what the model says, and its ledger must add up. */
export async function checkStore(
  h: Harness,
  world: ActorWorld,
  model: ActorModel,
  where: string,
): Promise<void> {
  const db = h.db.database.db;
  const account = await h.store.findAccount(world.accountId);
  const ledgerSum = await h.store.ledgerSum(world.accountId);
  const ledger = await fromLedger(db)
    .leftJoin('messages', 'messages.id', 'credit_ledger.message_id')
    .select([
      'credit_ledger.delta',
      'credit_ledger.reason',
      'credit_ledger.balance_after',
      'messages.uuid',
    ])
    .where('credit_ledger.account_id', '=', world.accountId)
    .orderBy('credit_ledger.id')
    .execute();
  const messages = await db
    .selectFrom('messages')
    .select(['uuid', 'cost', 'status', 'scheduled_at'])
    .where('account_id', '=', world.accountId)
    .execute();

  assert.ok(account, where);
  assert.ok(account.balance >= 0, `${where}: balance ${account.balance}`);
  assert.equal(ledgerSum, account.balance, `${where}: the ledger's sum is not the balance`);
  assert.equal(
    account.balance,
    model.balance,
    `${where}: the balance is not what the answers add up to`,
  );
  const shown = await h.request({
    method: 'GET',
    url: '/api/v2/sms/credit/balance',
    key: world.key,
  });
  assert.equal(shown.json().balance, account.balance, `${where}: GET balance`);

  let running = 0;
  for (const row of ledger) {
    running += Number(row.delta);
    assert.equal(
      Number(row.balance_after),
      running,
      `${where}: a ledger row's balance_after does not follow`,
    );
    assert.ok(running >= 0, `${where}: the ledger went below 0`);
  }
  const entry = (reason: string, delta: number, uuid: string | null) =>
    `${reason} ${delta} ${uuid ?? '-'}`;
  assert.deepEqual(
    ledger.map((row) => entry(row.reason, Number(row.delta), row.uuid)).sort(),
    model.ledger.map((e) => entry(e.reason, e.delta, e.uuid)).sort(),
    `${where}: the ledger holds rows no successful request explains, or misses some`,
  );

  assert.deepEqual(
    messages
      .map((m) => [
        m.uuid,
        Number(m.cost),
        m.status,
        m.scheduled_at === null ? null : Number(m.scheduled_at),
      ])
      .sort(),
    [...model.messages.values()].map((m) => [m.uuid, m.cost, m.status, m.scheduledAt]).sort(),
    `${where}: the stored messages are not those accepted`,
  );
  for (const message of messages) {
    const rows = ledger.filter((row) => row.uuid === message.uuid);
    const net = rows.reduce((sum, row) => sum + Number(row.delta), 0);
    const cost = Number(message.cost);
    assert.equal(
      net,
      message.status === 'cancelled' || cost === 0 ? 0 : -cost,
      `${where}: ${message.uuid}'s ledger rows do not sum to its cost`,
    );
    const debit = message.scheduled_at === null ? 'send' : 'hold';
    const expected =
      cost === 0
        ? []
        : message.status === 'cancelled'
          ? [entry(debit, -cost, message.uuid), entry('refund', cost, message.uuid)]
          : [entry(debit, -cost, message.uuid)];
    assert.deepEqual(
      rows.map((row) => entry(row.reason, Number(row.delta), row.uuid)),
      expected,
      `${where}: ${message.uuid}'s ledger rows`,
    );
  }
}
