import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { recordAudit } from '../../src/domain/audit/record-audit.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { createApiKey } from '../../src/domain/accounts/create-api-key.js';
import { updateAccountSettings } from '../../src/domain/accounts/update-account-settings.js';
import { adjustCredits } from '../../src/domain/credits/adjust-credits.js';
import {
  assertNoErrors,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
} from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';

const DAY_MS = 86_400_000;
const OWNER_IP = '203.0.113.9';
const ADMIN_IP = '198.51.100.4';

/** The rows of the log's table, header excluded. */
function logRows(page: Page) {
  return page.getByRole('table', { name: 'Audit log, newest first' }).locator('tbody tr');
}

// One engine is enough for the page; the API tests run both.
const engine = pageEngine('sqlite');

describe(`the audit log in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  let secret: string;
  let keyPrefix: string;
  before(async () => {
    const { store, clock } = pages.server.harness;
    const now = clock.now(); // 22 Nov 2026, 19:00 in Bangkok
    const owner = (await store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    const admin = (await store.findUserByEmail(CONSOLE_PEOPLE.admin.email))!;
    const accountId = owner.accountId!;
    // 19 November: the system grants credits; 20 November: 55 failed sign-ins (for paging)
    await adjustCredits(store, {
      accountId,
      amount: 5000,
      note: 'Bank transfer 2026-11-19',
      nowMs: now - 3 * DAY_MS,
      actor: SYSTEM_ACTOR,
    });
    for (let i = 0; i < 55; i++) {
      await recordAudit(store, {
        actorUserId: null,
        accountId,
        action: 'session.sign-in-failed',
        targetType: 'user',
        targetId: owner.id,
        detail: { email: owner.email },
        ip: '192.0.2.66',
        at: now - 2 * DAY_MS + i * 60_000,
      });
    }
    // 21 November: the admin changes the price; 22 November: the owner creates a key
    await updateAccountSettings(store, {
      accountId,
      settings: { pricePerPart: 2 },
      nowMs: now - DAY_MS,
      actor: { actorUserId: admin.id, ip: ADMIN_IP },
    });
    const created = await createApiKey(store, {
      accountId,
      scopes: ['sms:send'],
      name: 'billing server',
      nowMs: now,
      actor: { actorUserId: owner.id, ip: OWNER_IP },
    });
    secret = created.key;
    keyPrefix = created.record.prefix;
    // another account, whose events the owner must never see
    await createAccount(store, {
      name: 'Chiang Mai Coffee',
      credits: 100,
      nowMs: now,
      actor: { actorUserId: admin.id, ip: ADMIN_IP },
    });
  });

  it("an owner reads their account's log: who, when in Bangkok time, from where, what, in words", async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/audit-log');
    await expectHeading(page, 'Audit log');
    const keyRow = logRows(page).filter({ hasText: 'API key created' });
    await keyRow.waitFor();
    for (const text of [
      '22 Nov 2026, 19:00',
      CONSOLE_PEOPLE.owner.name,
      CONSOLE_PEOPLE.owner.email,
      'billing server',
      keyPrefix,
      'sms:send',
      OWNER_IP,
    ]) {
      await keyRow.getByText(text, { exact: true }).first().waitFor();
    }
    const priceRow = logRows(page).filter({ hasText: 'Account settings changed' });
    await priceRow.getByText(CONSOLE_PEOPLE.admin.name).waitFor();
    await priceRow.getByText('Credits per part:').waitFor();
    await priceRow.getByText('1 → 2').waitFor();
    await logRows(page).filter({ hasText: 'Signed in' }).first().waitFor();
    const content = await page.content();
    assert.ok(!content.includes(secret), 'the log never shows a key');
    assert.ok(!content.includes('Chiang Mai Coffee'), "another account's events are not shown");
    await screenshot(page, 'audit-log-owner-desktop');

    // newest first, 50 a page: the failed sign-ins of the 20th run over into the next page
    assert.equal(await logRows(page).count(), 50);
    const older = page.getByRole('button', { name: 'Show older' });
    await older.focus();
    await page.keyboard.press('Enter');
    await logRows(page).filter({ hasText: 'Credits granted' }).waitFor();
    assert.ok((await logRows(page).count()) > 50);
    assert.equal(await older.count(), 0, 'no more pages after the last');
    const grant = logRows(page).filter({ hasText: 'Credits granted' });
    await grant.getByText('System (command line or start-up)').waitFor();
    await grant.getByText('Bank transfer 2026-11-19').waitFor();
    await grant.getByText('Credits:').waitFor();
    await grant.getByText('5,000', { exact: true }).first().waitFor();
    await logRows(page).filter({ hasText: 'Sign-in failed' }).first().waitFor();
    await logRows(page)
      .filter({ hasText: 'Sign-in failed' })
      .first()
      .getByText('Someone not signed in')
      .waitFor();
    assertNoErrors(watched);
    await watched.close();
  });

  it('an owner narrows the log to one kind of action and to a window of days, kept in the address', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/audit-log');
    await expectHeading(page, 'Audit log');
    await logRows(page).first().waitFor();

    await page.getByLabel('Action').selectOption({ label: 'API keys' });
    await page.waitForFunction(() => location.search === '?action=api-key.');
    await logRows(page).filter({ hasText: 'API key created' }).waitFor();
    assert.equal(await logRows(page).count(), 1);
    await screenshot(page, 'audit-log-owner-filtered');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('From (day)').fill('2026-11-19');
    await page.getByLabel('To (day, inclusive)').fill('2026-11-19');
    await page.waitForFunction(() => location.search === '?from=2026-11-19&to=2026-11-19');
    await logRows(page).filter({ hasText: 'Credits granted' }).waitFor();
    assert.equal(await logRows(page).count(), 1);

    await page.reload();
    await logRows(page).filter({ hasText: 'Credits granted' }).waitFor();
    assert.equal(await page.getByLabel('From (day)').inputValue(), '2026-11-19');
    assert.equal(await logRows(page).count(), 1);

    // a window that ends before it starts is said at its field and not asked of the server
    await page.getByLabel('To (day, inclusive)').fill('2026-11-18');
    await page.getByText('The last day is before the first day.').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    await screenshot(page, 'audit-log-owner-bad-window');
    assertNoErrors(watched);
    await watched.close();
  });

  it('an owner reads the log at phone width and in Thai', async () => {
    const watched = await pages.open({ role: 'owner', viewport: PHONE });
    const { page } = watched;
    await page.goto('/console/audit-log');
    await expectHeading(page, 'Audit log');
    const list = page.getByRole('list', { name: 'Audit log, newest first' });
    await list.getByText('API key created').waitFor();
    await list.getByText(`From address ${OWNER_IP}`).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at phone width`);
    await screenshot(page, 'audit-log-owner-phone');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByText('ไทย', { exact: true }).click();
    await expectHeading(page, 'บันทึกการใช้งาน');
    const thaiRows = page.getByRole('table', { name: 'บันทึกการใช้งาน ล่าสุดก่อน' }).locator('tbody tr');
    await thaiRows.filter({ hasText: 'สร้างคีย์ API' }).waitFor();
    await thaiRows.filter({ hasText: 'สร้างคีย์ API' }).getByText('22 พ.ย. 2569 19:00').waitFor();
    await screenshot(page, 'audit-log-owner-thai');
    await page.getByText('English', { exact: true }).click();
    await expectHeading(page, 'Audit log');
    assertNoErrors(watched);
    await watched.close();
  });

  it("an admin reads every account's log and picks one account by name", async () => {
    const watched = await pages.open({ role: 'admin' });
    const { page } = watched;
    await page.goto('/console/audit-log');
    await expectHeading(page, 'Audit log');
    await logRows(page).filter({ hasText: 'Account created' }).waitFor();
    await logRows(page)
      .filter({ hasText: 'Account created' })
      .getByRole('link', { name: 'Chiang Mai Coffee' })
      .waitFor();
    await logRows(page).filter({ hasText: 'API key created' }).waitFor();
    await screenshot(page, 'audit-log-admin-desktop');

    const account = page.getByRole('combobox', { name: 'Account' });
    await account.click();
    await account.fill('Chiang');
    await page.getByRole('option', { name: /Chiang Mai Coffee/ }).click();
    await page.waitForFunction(() => /^\?accountId=\d+$/.test(location.search));
    await logRows(page).filter({ hasText: 'Account created' }).waitFor();
    await page.waitForFunction(() => !document.body.textContent?.includes('API key created'));
    const rows = await logRows(page).allTextContents();
    assert.ok(rows.length > 0);
    assert.ok(
      rows.every((row) => row.includes('Chiang Mai Coffee')),
      `only that account's events: ${rows.join(' | ')}`,
    );
    await screenshot(page, 'audit-log-admin-one-account');
    await page.setViewportSize(PHONE);
    await page.getByRole('list', { name: 'Audit log, newest first' }).waitFor();
    await screenshot(page, 'audit-log-admin-phone');
    assertNoErrors(watched);
    await watched.close();
  });

  it('a member cannot open the audit log', async () => {
    const watched = await pages.open({ role: 'member' });
    const { page } = watched;
    await page.goto('/console/audit-log');
    await page.getByText('Not available to you').waitFor();
    const response = await page.request.get(`${pages.server.origin}/console/api/audit-events`);
    assert.equal(response.status(), 403);
    await watched.close();
  });
});
