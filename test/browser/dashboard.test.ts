/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { adjustCredits } from '../../src/domain/credits/adjust-credits.js';
import type { RecipientStatus } from '../../src/domain/statuses.js';
import { deliveryFiguresStore } from '../../src/storage/dashboard-store.js';
import {
  assertNoErrors,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
} from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';

const HOUR_MS = 3_600_000;

/** Charts drawn: recharts' SVG surfaces with at least one bar or line in them. */
async function chartsDrawn(page: Page): Promise<number> {
  await page.locator('.recharts-surface').first().waitFor();
  return page.locator('.recharts-surface').count();
}

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');
describe(`the dashboards in Chromium (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  const sent: string[] = [];

  before(async () => {
    const h = pages.server.harness;
    const owner = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    const accountId = owner.accountId!;
    await adjustCredits(h.store, {
      accountId,
      amount: 2_000,
      note: 'opening',
      nowMs: h.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    await h.sender(accountId, 'BAKERY');
    const { key } = await h.key(accountId);
    // Sends over the last days, each with delivery outcomes on its counters.
    const now = h.clock.now();
    const days: [number, number, Partial<Record<RecipientStatus, number>>][] = [
      [6, 40, { success: 36, failed: 2, expired: 1, timeout: 1 }],
      [4, 25, { success: 20, failed: 5 }],
      [2, 60, { success: 57, timeout: 3 }],
      [1, 12, { success: 9, failed: 1, expired: 2 }],
      [0, 30, { success: 25, failed: 2 }],
    ];
    for (const [back, count, outcome] of days) {
      h.clock.advance(now - back * 24 * HOUR_MS - h.clock.now());
      const msisdns = Array.from(
        { length: count },
        (_, i) => `08${back}${String(i).padStart(7, '0')}`,
      );
      const { uuid } = await h.send(
        { key },
        { sender: 'BAKERY', content: `Fresh bread, day -${back}`, msisdns },
      );
      sent.push(uuid);
      const message = (await h.store.findMessageByUuid(uuid))!;
      await h.store.setMessageCounts(
        message.id,
        new Map(Object.entries(outcome) as [RecipientStatus, number][]),
      );
    }
    h.clock.advance(now - h.clock.now());
    await h.store.updateAccountSettings(accountId, { lowBalanceThreshold: 5_000 });
    // What dispatchers would have counted, for two carriers over the last days.
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const figures = deliveryFiguresStore(h.db.database.db);
    await figures.addDeliveryFigures(
      [0, 1, 2, 3, 5, 8].flatMap((back) => {
        const hourStart = hour - back * 24 * HOUR_MS;
        return [
          { hourStart, carrier: 'ais', figure: 'recipients', label: '', count: 900 + back * 50 },
          { hourStart, carrier: 'true', figure: 'recipients', label: '', count: 400 + back * 30 },
          { hourStart, carrier: 'ais', figure: 'receipt-latency', label: '1', count: 500 },
          { hourStart, carrier: 'ais', figure: 'receipt-latency', label: '5', count: 300 },
          { hourStart, carrier: 'true', figure: 'receipt-latency', label: '10', count: 200 },
          { hourStart, carrier: 'true', figure: 'receipt-latency', label: '60', count: 20 },
        ] as const;
      }),
    );
    await figures.addDeliveryFigures([
      { hourStart: hour, carrier: 'ais', figure: 'submit-error', label: '0x00000058', count: 42 },
      { hourStart: hour, carrier: 'true', figure: 'submit-error', label: '0x0000000b', count: 7 },
    ]);
  });

  it('an owner sees the low-balance warning, the last 30 days in charts and the latest messages, and turns the warning off', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/dashboard');
    await expectHeading(page, 'Dashboard');
    await page.getByText('Your balance is running low').waitFor();
    assert.equal(await page.getByTestId('dashboard-balance').textContent(), '1,833');
    assert.ok((await chartsDrawn(page)) >= 3, 'three charts');
    await page.getByRole('heading', { name: 'Delivery ratio per day' }).waitFor();
    const latest = page.getByRole('table', { name: 'Latest messages' });
    // The newest first, each linked to its message page.
    const links = latest.getByRole('link');
    assert.equal(await links.count(), 5);
    assert.equal(await links.first().getAttribute('href'), `/console/messages/${sent.at(-1)}`);
    await screenshot(page, 'dashboard-owner-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'dashboard-owner-phone');

    const threshold = page.getByLabel('Low-balance warning below (credits)');
    await threshold.fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Low-balance warning saved.').waitFor();
    await page.getByText('Your balance is running low').waitFor({ state: 'detached' });
    assertNoErrors(watched);
    await watched.close();
  });

  it('a member reads the dashboard in Thai, the threshold shown but not editable', async () => {
    const h = pages.server.harness;
    const owner = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    await h.store.updateAccountSettings(owner.accountId!, { lowBalanceThreshold: 5_000 });
    const watched = await pages.open({ role: 'member', locale: 'th-TH' });
    const { page } = watched;
    await page.goto('/console/dashboard');
    await expectHeading(page, 'แดชบอร์ด');
    await page.getByText('ยอดเครดิตของคุณใกล้หมด').waitFor();
    await page.getByText('แดชบอร์ดจะเตือนเมื่อยอดต่ำกว่า 5,000 เครดิต').waitFor();
    assert.equal(await page.getByRole('spinbutton').count(), 0, 'no threshold field');
    assert.equal(await page.getByRole('textbox').count(), 0, 'no threshold field');
    assert.ok((await chartsDrawn(page)) >= 3);
    await page.getByRole('heading', { name: 'อัตราการส่งถึงต่อวัน' }).waitFor();
    await screenshot(page, 'dashboard-member-th-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'dashboard-member-th-phone');
    assertNoErrors(watched);
    await watched.close();
  });

  it('an admin sees recipients per carrier, submit errors by code and receipt latency, in English and Thai', async () => {
    const watched = await pages.open({ role: 'admin' });
    const { page } = watched;
    await page.goto('/console/admin/dashboard');
    await expectHeading(page, 'Platform dashboard');
    assert.ok((await chartsDrawn(page)) >= 2, 'recipients and latency charts');
    const errors = page.getByRole('table', { name: 'Submit errors by code' });
    assert.deepEqual((await errors.getByRole('row').allTextContents()).slice(1), [
      '0x00000058ais42',
      '0x0000000btrue7',
    ]);
    const latency = page.getByRole('table', { name: 'Receipt latency' });
    await latency.getByRole('row', { name: /^ais/ }).waitFor();
    await screenshot(page, 'dashboard-admin-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'dashboard-admin-phone');
    assertNoErrors(watched);
    await watched.close();

    const thai = await pages.open({ role: 'admin', locale: 'th-TH' });
    await thai.page.goto('/console/admin/dashboard');
    await expectHeading(thai.page, 'แดชบอร์ดแพลตฟอร์ม');
    await thai.page.getByRole('heading', { name: 'ข้อผิดพลาดในการส่งตามรหัส' }).waitFor();
    assert.ok((await chartsDrawn(thai.page)) >= 2);
    await screenshot(thai.page, 'dashboard-admin-th-desktop');
    await thai.page.setViewportSize(PHONE);
    await screenshot(thai.page, 'dashboard-admin-th-phone');
    assertNoErrors(thai);
    await thai.close();
  });
});
