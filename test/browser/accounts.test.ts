/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import { parseCarrierConfig } from '../../src/carriers/carrier-config.js';
import { loadConfig } from '../../src/config.js';
import { adjustCredits } from '../../src/domain/credits/adjust-credits.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { systemClock } from '../../src/domain/clock.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { startRuntime, type Runtime } from '../../src/main.js';
import { statusBoardStore } from '../../src/storage/status-board-store.js';
import { databaseUrlFor } from '../cli/nok-process.js';
import {
  assertNoErrors,
  CONSOLE_PASSWORD,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  launchChromium,
  openPage,
  PHONE,
  screenshot,
} from '../support/console-browser.js';
import { TEST_TOTP_SECRET } from '../support/console-session.js';
import { pageEngine, type TestDatabase } from '../support/engines.js';
import type { Harness } from '../support/harness.js';

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('postgres');
describe(`keys, credits and accounts in Chromium (${engine.name})`, () => {
  const pages = consoleInChromium(engine);

  const ownerAccountId = async () =>
    (await pages.server.harness.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!.accountId!;

  it('an owner creates a key, sees it once, uses it, and revokes it: it answers 401 at once', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/api-keys');
    await expectHeading(page, 'API keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel(/^Name/).fill('billing server');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByTestId('api-key-secret');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    assert.match(secret, /^nok_[a-z2-7]{12}_/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await screenshot(page, 'api-keys-secret-desktop');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const balance = () =>
      fetch(`${pages.server.origin}/api/v2/sms/credit/balance`, {
        headers: { 'x-api-key': secret },
      });
    assert.equal((await balance()).status, 200);
    await page.reload();
    const row = page.getByRole('row', { name: /billing server/ });
    await row.waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the list never shows the secret');
    await screenshot(page, 'api-keys-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'api-keys-phone');

    await row.getByRole('button', { name: 'Revoke the key billing server' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke this key?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await row.getByText(/^Revoked/).waitFor();
    assert.equal((await balance()).status, 401);
    assertNoErrors(watched);
    await watched.close();
  });

  it('an owner sees the balance and the ledger, newest first', async () => {
    const accountId = await ownerAccountId();
    for (const [amount, note] of [
      [5000, 'Bank transfer 2026-11-01'],
      [-200, 'Correction of a double top-up'],
    ] as const) {
      await adjustCredits(pages.server.harness.store, {
        accountId,
        amount,
        note,
        nowMs: pages.server.harness.clock.now(),
        actor: SYSTEM_ACTOR,
      });
    }
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/credits');
    await expectHeading(page, 'Credits');
    const balance = (await pages.server.harness.store.findAccount(accountId))!.balance;
    await page.getByTestId('credit-balance').getByText(balance.toLocaleString('en-GB')).waitFor();
    const rows = page.getByRole('table', { name: 'Credit ledger, newest first' }).getByRole('row');
    await rows.nth(1).getByText('Correction of a double top-up').waitFor();
    await rows.nth(2).getByText('Bank transfer 2026-11-01').waitFor();
    await screenshot(page, 'credits-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'credits-phone');
    assertNoErrors(watched);
    await watched.close();
  });

  it('an admin creates an account, grants and deducts, is told no below 0, and suspends it', async () => {
    const watched = await pages.open({ role: 'admin' });
    const { page } = watched;
    await page.goto('/console/admin/accounts');
    await expectHeading(page, 'Accounts');
    await page.getByRole('button', { name: 'Create account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an account' });
    await dialog.getByLabel(/^Name/).fill('Bangkok Bakery');
    await dialog.getByLabel('Opening credits').fill('1000');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(page, 'Bangkok Bakery');

    const adjust = page.getByRole('region', { name: 'Grant or deduct credits' });
    await adjust.getByLabel(/^Credits/).fill('500');
    await adjust.getByLabel(/^Note/).fill('Promotion for November');
    await adjust.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('account-balance').getByText('1,500').waitFor();

    await adjust.getByText('Deduct', { exact: true }).click();
    await adjust.getByLabel(/^Credits/).fill('2000');
    await adjust.getByLabel(/^Note/).fill('Too much');
    await adjust.getByRole('button', { name: 'Apply' }).click();
    await adjust
      .getByRole('alert')
      .getByText(/never goes below 0/)
      .waitFor();
    await page.getByTestId('account-balance').getByText('1,500').waitFor();

    const status = page.getByRole('region', { name: 'Account status' });
    await status.getByRole('button', { name: 'Suspend account' }).click();
    await page
      .getByRole('dialog', { name: 'Suspend this account?' })
      .getByRole('button', { name: 'Suspend account' })
      .click();
    await status.getByRole('button', { name: 'Reactivate account' }).waitFor();
    await page.getByText('Suspended', { exact: true }).first().waitFor();
    await page.getByRole('table', { name: 'Credit ledger, newest first' }).waitFor();
    await screenshot(page, 'admin-account-detail-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'admin-account-detail-phone');

    await page.goto('/console/admin/accounts');
    await page.getByRole('row', { name: /Bangkok Bakery/ }).waitFor();
    // A search longer than the server takes is said at the field and not asked for; the
    // list shown stays, and shortening it asks again.
    const search = page.getByLabel('Find by name');
    await search.fill('Bangkok Bakery'.padEnd(101, '.'));
    await page.getByText('At most 100 characters').waitFor();
    await search.fill('Bangkok Bakery');
    await page.getByText('At most 100 characters').waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Bangkok Bakery/ }).waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'admin-accounts-desktop');
    // The refused deduction is a 402 the browser logs; nothing else went wrong.
    assertNoErrors(watched, /status of 402/);
    await watched.close();
  });

  it('keeps a member off the keys page and out of its API', async () => {
    const watched = await pages.open({ role: 'member' });
    const { page } = watched;
    await page.goto('/console/api-keys');
    await expectHeading(page, 'Not available to you');
    const response = await page.context().request.get(`${pages.server.origin}/console/api/keys`);
    assert.equal(response.status(), 403);
    assertNoErrors(watched);
    await watched.close();
  });
});

describe(`the carriers page in Chromium (${engine.name})`, () => {
  let browser: Browser;
  let db: TestDatabase;
  let runtime: Runtime;
  let second: Runtime | undefined;
  before(async () => {
    db = await engine.create();
    const config = loadConfig({
      NOK_DATABASE_URL: databaseUrlFor(db),
      NOK_HOST: '127.0.0.1',
      NOK_PORT: '0',
      NOK_OPS_PORT: '0',
      NOK_SMSC_PORT: '0',
      NOK_SMSC_OPTIONS: '{"preset":"happy"}',
    });
    [browser, runtime] = await Promise.all([
      launchChromium(),
      startRuntime(
        config,
        { api: true, scheduler: false, dispatcher: true, smsc: true },
        { logger: pino({ level: 'silent' }) },
      ),
    ]);
    const admin = await runtime.store.createUser({
      ...CONSOLE_PEOPLE.admin,
      role: 'admin',
      accountId: null,
      passwordHash: await hashPassword(CONSOLE_PASSWORD),
      nowMs: Date.now(),
    });
    // Admins must have TOTP; signInAs gives the current code of this secret.
    await runtime.store.updateUser(
      admin.id,
      { totpSecret: TEST_TOTP_SECRET, totpEnabledAt: Date.now() },
      Date.now(),
    );
  });
  after(async () => {
    await browser?.close();
    await second?.stop();
    await runtime?.stop();
    await db?.drop();
  });

  it('shows every dispatcher process: binds, rates and queue depth added up per carrier, refreshed live', async () => {
    // No harness here: a real runtime on the real clock, which signInAs reads the code by.
    const harness = { store: runtime.store, clock: systemClock } as unknown as Harness;
    const server = { origin: runtime.url!, harness, close: async () => {} };
    const watched = await openPage(browser, server, { role: 'admin' });
    const { page } = watched;
    await page.goto('/console/admin/carriers');
    await expectHeading(page, 'Carriers');
    const card = page.getByRole('region', { name: 'builtin-smsc' });
    await card.getByText('Binds up: 2 of 2').waitFor();
    await card.getByText('Through 1 dispatcher').waitFor();
    await page.getByTestId('queue-depth').getByText('0').waitFor();

    // A second dispatcher process on the same store (a dispatcher-only runtime), binding to
    // the same carrier: the page finds it by itself, without a reload.
    second = await startRuntime(
      loadConfig({ NOK_DATABASE_URL: databaseUrlFor(db), NOK_OPS_PORT: '0' }),
      { api: false, scheduler: false, dispatcher: true },
      {
        logger: pino({ level: 'silent' }),
        carriers: parseCarrierConfig({
          carriers: [
            {
              name: 'builtin-smsc',
              host: runtime.smsc!.host,
              port: runtime.smsc!.port,
              systemId: 'nok',
              password: 'nok',
              binds: 2,
            },
          ],
        }),
      },
    );
    await card.getByText('Binds up: 4 of 4').waitFor();
    await card.getByText('Through 2 dispatchers, added up').waitFor();
    await page.getByTestId('dispatchers-reporting').getByText('2 reporting').waitFor();
    const rows = page.getByRole('table', { name: 'Dispatcher processes' }).getByRole('row');
    assert.equal(await rows.count(), 3, 'a header and one row per dispatcher');
    // The row a killed dispatcher leaves behind, last written 30 seconds ago: named apart.
    await statusBoardStore(db.database.db).publish({
      owner: 'gone-host:4242:dead00',
      startedAt: Date.now() - 600_000,
      writtenAt: Date.now() - 30_000,
      status: '{}',
    });
    await page
      .getByTestId('silent-dispatchers')
      .getByText(/^gone-host:4242:dead00: last report .* \(3\d s ago\)$/)
      .waitFor();
    await card.getByText('Binds up: 4 of 4').waitFor();
    await screenshot(page, 'admin-carriers-dispatchers-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'admin-carriers-dispatchers-phone');

    // A dispatcher that stops says so: the page drops it at its next refresh.
    await second.stop();
    second = undefined;
    await card.getByText('Binds up: 2 of 2').waitFor();
    await page.getByTestId('dispatchers-reporting').getByText('1 reporting').waitFor();
    assertNoErrors(watched);
    await watched.close();
  });
});
