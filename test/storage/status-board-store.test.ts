import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { StatusBoard } from '../../src/domain/delivery/status-board.js';
import { statusBoardStore } from '../../src/storage/status-board-store.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

for (const engine of testEngines()) {
  describe(`the status board (${engine.name})`, () => {
    let db: TestDatabase;
    let board: StatusBoard;
    before(async () => {
      db = await engine.create();
      board = statusBoardStore(db.database.db);
    });
    beforeEach(() => db.database.db.deleteFrom('dispatcher_statuses').execute());
    after(() => db.drop());

    it("keeps one row per process: a write replaces the process's last one, keeping when it started", async () => {
      await board.publish({ owner: 'a', startedAt: 100, writtenAt: 100, status: '{"n":1}' });
      await board.publish({ owner: 'b', startedAt: 150, writtenAt: 150, status: '{"n":2}' });
      await board.publish({ owner: 'a', startedAt: 999, writtenAt: 200, status: '{"n":3}' });
      assert.deepEqual(await board.read(0), [
        { owner: 'a', startedAt: 100, writtenAt: 200, status: '{"n":3}' },
        { owner: 'b', startedAt: 150, writtenAt: 150, status: '{"n":2}' },
      ]);
    });

    it('reads the rows written at or after a time, and removes one process', async () => {
      for (const [owner, writtenAt] of [
        ['c', 300],
        ['a', 100],
        ['b', 200],
      ] as const) {
        await board.publish({ owner, startedAt: 0, writtenAt, status: '{}' });
      }
      assert.deepEqual(
        (await board.read(200)).map((row) => row.owner),
        ['b', 'c'],
      );
      await board.remove('b');
      await board.remove('no such process');
      assert.deepEqual(
        (await board.read(0)).map((row) => row.owner),
        ['a', 'c'],
      );
    });

    it('purges the rows written before a time and says how many', async () => {
      await board.publish({ owner: 'old', startedAt: 0, writtenAt: 100, status: '{}' });
      await board.publish({ owner: 'older', startedAt: 0, writtenAt: 50, status: '{}' });
      await board.publish({ owner: 'new', startedAt: 0, writtenAt: 500, status: '{}' });
      assert.equal(await board.purge(500), 2);
      assert.equal(await board.purge(500), 0);
      assert.deepEqual(
        (await board.read(0)).map((row) => row.owner),
        ['new'],
      );
    });
  });
}
