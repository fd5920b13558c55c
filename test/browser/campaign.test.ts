import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { adjustCredits } from '../../src/domain/credits/adjust-credits.js';
import {
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  screenshot,
} from '../support/console-browser.js';
import { startDeliveryRig, type DeliveryRig } from '../support/delivery-rig.js';
import { pageEngine } from '../support/engines.js';

// 165 UTF-16 units of Thai: three parts of 67, 67 and 31.
const THAI_3_PARTS = 'สวัสดีครับ '.repeat(15);
const GROUP_SIZE = 10_000;
const OPENING_CREDITS = 100_000;

async function chooseSender(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Sender name' }).click();
  await page.getByRole('option', { name }).click();
}

/** A CSV with a header and GROUP_SIZE distinct numbers 0810000000… */
function groupFile(): Buffer {
  const lines = ['phone,name'];
  for (let i = 0; i < GROUP_SIZE; i++) lines.push(`08${String(10_000_000 + i)},ลูกค้า ${i}`);
  return Buffer.from(lines.join('\n'));
}

// One engine: the whole path in a browser; the API tests cover both engines.
const engine = pageEngine('sqlite');

/**
 * Issue 9's campaign, done in the browser only: the people click, type and upload; the test's
 * own code only sets the scene (credits, an approved sender name, a carrier) and reads the
 * store to check what the pages said.
 */
describe(`a campaign from the console alone (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  let rig: DeliveryRig | undefined;
  let accountId: number;

  before(async () => {
    const h = pages.server.harness;
    accountId = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!.accountId!;
    await adjustCredits(h.store, {
      accountId,
      amount: OPENING_CREDITS,
      note: 'Opening credits',
      nowMs: h.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    await h.sender(accountId, 'NOKSHOP');
    // A carrier that fails about a third of the numbers, so there is something to filter.
    rig = await startDeliveryRig(h, [
      {
        name: 'sim',
        smsc: { deliveredRatio: 0.6, failedRatio: 0.3, expiredRatio: 0.1, receiptDelayMs: 50 },
      },
    ]);
  });
  pages.beforeStop(() => rig?.close());

  it('imports a 10,000-number group, sends a Thai message of three parts to it, watches it finish, exports the failed, and cancels a scheduled send for a refund', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;

    // 1. The group, imported from a file with a progress bar.
    await page.goto('/console/contact-groups');
    await expectHeading(page, 'Contact groups');
    await page.getByLabel('New group name').fill('ลูกค้า VIP');
    await page.getByRole('button', { name: 'Create group' }).click();
    await expectHeading(page, 'ลูกค้า VIP');
    await page.getByTestId('import-file').click();
    await page.locator('input[type=file]').setInputFiles({
      name: 'vip.csv',
      mimeType: 'text/csv',
      buffer: groupFile(),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-report').getByText('Added: 10,000').waitFor({ timeout: 30_000 });
    await page.getByTestId('group-size').getByText('10,000 numbers').waitFor();

    // 2. Compose to the group: three parts, and the cost before sending.
    await page.goto('/console/messages/new');
    await expectHeading(page, 'Send a message');
    await chooseSender(page, 'NOKSHOP');
    await page.getByLabel('Message text').fill(THAI_3_PARTS);
    await page
      .getByTestId('part-counter')
      .getByText(/165 characters · 3 parts/)
      .waitFor();
    await page.getByText('Contact group', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Contact group' }).click();
    await page.getByRole('option', { name: /ลูกค้า VIP/ }).click();
    await page
      .getByTestId('live-cost')
      .getByText(/3 parts × 10,000 recipients = 30,000 credits/)
      .waitFor();
    await page.getByRole('button', { name: 'Check before sending' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check and confirm' });
    await dialog.getByTestId('confirm-cost').getByText('30,000').waitFor();
    await dialog.getByRole('button', { name: 'Send now' }).click();

    // 3. The message page follows the delivery until every recipient is final.
    await page.waitForURL(/\/console\/messages\/[0-9a-f-]{36}$/);
    const uuid = page.url().split('/').at(-1)!;
    const message = (await pages.server.harness.store.findMessageByUuid(uuid))!;
    assert.equal(message.parts, 3);
    assert.equal(message.cost, 30_000);
    assert.equal(
      (await pages.server.harness.store.findAccount(accountId))!.balance,
      OPENING_CREDITS - 30_000,
    );
    await expectHeading(page, message.refNo);
    await rig!.materialise();
    await page
      .getByText('10,000 of 10,000 recipients have a final status')
      .waitFor({ timeout: 120_000 });
    await screenshot(page, 'campaign-message-final');

    // 4. The failed ones, filtered and exported.
    const counts = await pages.server.harness.store.messageCountsByUuid(uuid);
    const failed = counts.get('failed') ?? 0;
    assert.ok(failed > 0, 'the carrier failed some numbers');
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('table[aria-label="Recipients"] tbody tr').length ===
        Math.min(n, 50),
      failed,
    );
    const statuses = await page
      .getByRole('table', { name: 'Recipients', exact: true })
      .locator('tbody tr .mantine-Badge-root')
      .allTextContents();
    assert.ok(
      statuses.every((s) => s === 'Failed'),
      statuses.join(),
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export “Failed” as CSV' }).click(),
    ]);
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    assert.equal(csv[0], 'seq,msisdn,status,updatedAt');
    assert.equal(csv.length - 1, failed);
    assert.ok(csv.slice(1).every((line) => line.split(',')[2] === 'failed'));

    // 5. A scheduled send, cancelled: the refund shows on the page and in the ledger.
    await page.goto('/console/messages/new');
    await expectHeading(page, 'Send a message');
    await chooseSender(page, 'NOKSHOP');
    await page.getByLabel('Message text').fill('โปรโมชันพรุ่งนี้ 9 โมง');
    await page.getByLabel('Numbers').fill('0812345678\n0812345679');
    await page
      .getByTestId('live-cost')
      .getByText(/= 2 credits/)
      .waitFor();
    await page.getByText('Schedule for later').click();
    await page.getByLabel('Send at').fill('2099-01-02T09:30');
    await page.getByRole('button', { name: 'Check before sending' }).click();
    await page
      .getByRole('dialog', { name: 'Check and confirm' })
      .getByRole('button', { name: 'Schedule' })
      .click();
    await page.waitForURL(/\/console\/messages\/[0-9a-f-]{36}$/);
    const scheduled = (await pages.server.harness.store.findMessageByUuid(
      page.url().split('/').at(-1)!,
    ))!;
    assert.equal(scheduled.status, 'scheduled');
    await expectHeading(page, scheduled.refNo);
    await page.getByRole('button', { name: 'Cancel sending' }).click();
    await page.getByRole('button', { name: 'Cancel and refund' }).click();
    await page.getByText('2 credits were refunded', { exact: false }).waitFor();
    assert.equal(
      (await pages.server.harness.store.findAccount(accountId))!.balance,
      OPENING_CREDITS - 30_000,
    );

    await page.goto('/console/credits');
    await expectHeading(page, 'Credits');
    // The ledger names the message by the start of its uuid.
    const refund = page
      .getByRole('row')
      .filter({ hasText: scheduled.uuid.slice(0, 8) })
      .filter({ hasText: 'Refund' })
      .filter({ hasText: '+2' });
    await refund.waitFor();
    await screenshot(page, 'campaign-ledger-refund');
    // The ledger's movement leads back to its message.
    await refund.getByRole('link', { name: `Open the message ${scheduled.uuid}` }).click();
    await expectHeading(page, scheduled.refNo);
    await page.getByText('Cancelled', { exact: true }).first().waitFor();
    assert.deepEqual(watched.errors, [], 'errors in the browser console');
    await watched.close();
  });
});
