/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
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
import { accessibilityProblems } from '../support/accessibility.js';
import { pageEngine } from '../support/engines.js';

const DAY_MS = 86_400_000;

/**
 * Runs of five digits or more in the page's main content, outside identifiers (reference
 * numbers, uuids and phone numbers, which the console sets in a monospace face): a quantity
 * written without its locale's grouping, such as "97000".
 */
async function ungroupedNumbers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const main = document.querySelector('main');
    const walker = document.createTreeWalker(main ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || getComputedStyle(element).fontFamily.includes('monospace')) continue;
      found.push(...(node.textContent?.match(/\d{5,}/g) ?? []));
    }
    return found;
  });
}

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');

describe(`numbers and counted words in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  let key: string;
  const sender = 'NokShop';

  /** A message to `numbers` at 9:00 tomorrow, through /api/v2. */
  function schedule(numbers: string[]) {
    const h = pages.server.harness;
    return h.send<{ uuid: string; refNo: string }>(
      { key },
      {
        sender,
        content: 'Flash sale tomorrow at 9:00',
        msisdns: numbers,
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      },
    );
  }

  before(async () => {
    const h = pages.server.harness;
    const accountId = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!.accountId!;
    // Two recipients of one part at 48,500 credits a part: 97,000 credits, out of 1,000,000.
    await updateAccountSettings(h.store, {
      accountId,
      settings: { pricePerPart: 48_500 },
      nowMs: h.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    await adjustCredits(h.store, {
      accountId,
      amount: 1_000_000,
      note: 'Opening credits',
      nowMs: h.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    await h.sender(accountId, sender);
    key = (await h.key(accountId)).key;
  });

  it('writes every amount with its thousands grouped, in English and in Thai: the cost, the refund notice, the balance and the ledger', async () => {
    for (const language of ['en', 'th'] as const) {
      const message = await schedule(['0812345678', '0812345679']);
      const watched = await pages.open({
        role: 'owner',
        locale: language === 'th' ? 'th-TH' : 'en-GB',
      });
      const { page } = watched;
      await page.goto(`/console/messages/${message.uuid}`);
      await expectHeading(page, message.refNo);
      const cost =
        language === 'en'
          ? '97,000 credits (2 recipients × 1 part × 48,500)'
          : '97,000 เครดิต (ผู้รับ 2 ราย × 1 ส่วน × 48,500)';
      await page.getByText(cost).waitFor();
      await page
        .getByRole('button', { name: language === 'en' ? 'Cancel sending' : 'ยกเลิกการส่ง' })
        .click();
      await page
        .getByText(
          language === 'en'
            ? 'It will not be sent, and its 97,000 credits come back to your balance.'
            : 'ข้อความจะไม่ถูกส่ง และเครดิต 97,000 จะคืนเข้ายอดคงเหลือของคุณ',
        )
        .waitFor();
      await page
        .getByRole('button', { name: language === 'en' ? 'Cancel and refund' : 'ยกเลิกและคืนเครดิต' })
        .click();
      await page
        .getByRole('status')
        .getByText(
          language === 'en'
            ? '97,000 credits were refunded; your balance is now 1,000,000.'
            : 'คืนเครดิต 97,000 แล้ว ยอดคงเหลือตอนนี้ 1,000,000',
        )
        .waitFor();
      assert.deepEqual(await ungroupedNumbers(page), [], 'the message page');
      assert.deepEqual(await accessibilityProblems(page), [], 'the message page');
      await screenshot(page, `message-refunded-${language}`);

      await page.goto('/console/messages');
      await page.getByRole('link', { name: message.refNo }).waitFor();
      assert.deepEqual(await ungroupedNumbers(page), [], 'the message list');
      await page.goto('/console/credits');
      await page.getByTestId('credit-balance').getByText('1,000,000').waitFor();
      await page.getByRole('cell', { name: '-97,000' }).first().waitFor();
      await page.getByRole('cell', { name: '+97,000' }).first().waitFor();
      assert.deepEqual(await ungroupedNumbers(page), [], 'the credits page');
      assert.deepEqual(await accessibilityProblems(page), [], 'the credits page');
      await page.goto('/console/dashboard');
      await page.getByTestId('dashboard-balance').getByText('1,000,000').waitFor();
      assert.deepEqual(await ungroupedNumbers(page), [], 'the dashboard');
      assert.deepEqual(await accessibilityProblems(page), [], 'the dashboard');
      assertNoErrors(watched);
      await watched.close();
    }
  });

  it('counts one thing in the singular: "1 part", "1 recipient", "1 credit"', async () => {
    const h = pages.server.harness;
    const accountId = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!.accountId!;
    await updateAccountSettings(h.store, {
      accountId,
      settings: { pricePerPart: 1 },
      nowMs: h.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    const message = await schedule(['0812345670']);
    const watched = await pages.open({ role: 'member', viewport: PHONE });
    const { page } = watched;
    await page.goto(`/console/messages/${message.uuid}`);
    await expectHeading(page, message.refNo);
    await page.getByText('1 credit (1 recipient × 1 part × 1)').waitFor();
    await page.getByText('0 of 1 recipient has a final status').waitFor();
    await screenshot(page, 'message-one-recipient-phone');
    // At phone width the navigation is closed, out of the accessibility tree.
    assert.deepEqual(await accessibilityProblems(page, ['banner', 'main']), []);

    await page.goto('/console/messages/new');
    await expectHeading(page, 'Send a message');
    await page.getByLabel('Message text').fill('Hello');
    await page.getByLabel('Numbers').fill('0812345678');
    await page
      .getByTestId('part-counter')
      .getByText(/^5 characters · 1 part \(/)
      .waitFor();
    await page
      .getByTestId('live-cost')
      .getByText(/^1 part × 1 recipient = 1 credit \(balance /)
      .waitFor();
    assertNoErrors(watched);
    await watched.close();
  });
});
