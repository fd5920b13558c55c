import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { addCredits } from '../../src/domain/credits/add-credits.js';
import { createTemplate } from '../../src/domain/templates/create-template.js';
import {
  assertNoErrors,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
  SCREENSHOT_DIR,
} from '../support/console-browser.js';
import { accessibilityProblems } from '../support/accessibility.js';
import { pageEngine } from '../support/engines.js';

// 165 UTF-16 units of Thai: three parts of 67, 67 and 31.
const THAI_3_PARTS = 'สวัสดีครับ '.repeat(15);

/** The recipient tally a dialog or page shows, figure by figure, as the user reads it. */
async function tallyIn(scope: Locator): Promise<Record<string, string>> {
  const figures = ['requested', 'duplicates', 'unique', 'invalid', 'blocked', 'charged'];
  const shown: Record<string, string> = {};
  for (const figure of figures) {
    shown[figure] = await scope.getByTestId(`tally-${figure}`).innerText();
  }
  return shown;
}

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');

describe(`compose and send in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  let accountId: number;

  before(async () => {
    const h = pages.server.harness;
    const owner = await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email);
    accountId = owner!.accountId!;
    await addCredits(h.store, { accountId, amount: 1_000_000, nowMs: h.clock.now() });
    await h.sender(accountId, 'NOKSHOP');
    await h.sender(accountId, 'PENDING', 'pending');
    await h.store.addToBlocklist(accountId, ['66800000009'], h.clock.now());
  });

  it('a member writes a Thai message of three parts, uploads a file with a progress bar, checks the cost, confirms and lands on the message', async () => {
    const { page, errors } = await pages.open({ role: 'member' });
    await page.goto('/console/messages/new');
    await expectHeading(page, 'Send a message');

    await page.getByRole('combobox', { name: 'Sender name' }).click();
    const options = page.getByRole('option');
    await options.first().waitFor();
    assert.deepEqual(await options.allTextContents(), ['NOKSHOP']);
    await page.getByRole('option', { name: 'NOKSHOP' }).click();

    await page.getByLabel('Message text').fill(THAI_3_PARTS);
    await page
      .getByTestId('part-counter')
      .getByText(/165 characters · 3 parts/)
      .waitFor();

    await page.getByText('Upload a file', { exact: true }).click();
    const lines = ['phone'];
    for (let i = 0; i < 200_000; i++) lines.push(`08${String(10_000_000 + i)}`);
    lines.push('0800000009', '0810000000', 'not a number');
    await page.locator('input[type=file]').setInputFiles({
      name: 'customers.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(lines.join('\n')),
    });
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await page.getByText('In the file: 200,001 valid · 1 invalid · 1 repeated').waitFor();
    // 3 parts × 200,000 recipients (one blocklisted) × 1 credit.
    await page
      .getByTestId('live-cost')
      .getByText(/= 600,000 credits/)
      .waitFor();
    await screenshot(page, 'compose-desktop');

    // Longer than a send takes (counted in characters, as the server counts: 1,000 emoji are
    // 2,000 UTF-16 units and pass): said as it is typed, and nothing can be checked or sent.
    const text = page.getByLabel('Message text');
    const tooLong = 'A message holds at most 1,000 characters: shorten it to send.';
    await text.fill('🙂'.repeat(1_000));
    await page
      .getByTestId('part-counter')
      .getByText(/1,000 characters/)
      .waitFor();
    assert.equal(await page.getByText(tooLong).count(), 0);
    await text.fill('🙂'.repeat(1_001));
    await page.getByText(tooLong).waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Check before sending' }).isDisabled(),
      true,
    );
    await text.fill(THAI_3_PARTS);
    await page.getByText(tooLong).waitFor({ state: 'detached' });
    await page
      .getByTestId('live-cost')
      .getByText(/= 600,000 credits/)
      .waitFor();

    await page.getByRole('button', { name: 'Check before sending' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check and confirm' });
    await dialog.waitFor();
    await dialog.getByTestId('confirm-cost').getByText('600,000').waitFor();
    // The file's 200,003 numbers: one repeated, one not a number, one blocklisted.
    const tally = {
      requested: '200,003',
      duplicates: '1',
      unique: '200,002',
      invalid: '1',
      blocked: '1',
      charged: '200,000',
    };
    assert.deepEqual(await tallyIn(dialog), tally);
    assert.deepEqual(await accessibilityProblems(page), []);
    await screenshot(page, 'compose-confirm');
    const balanceBefore = (await pages.server.harness.store.findAccount(accountId))!.balance;
    await dialog.getByRole('button', { name: 'Send now' }).click();

    await page.waitForURL(/\/console\/messages\/[0-9a-f-]{36}$/);
    const uuid = page.url().split('/').at(-1)!;
    const message = await pages.server.harness.store.findMessageByUuid(uuid);
    assert.equal(message?.parts, 3);
    await expectHeading(page, message!.refNo);
    // The message page counts them as the confirmation did.
    assert.deepEqual(await tallyIn(page.getByRole('main')), tally);
    assert.deepEqual(await accessibilityProblems(page), []);
    await screenshot(page, 'compose-sent-message');
    assert.equal(
      (await pages.server.harness.store.findAccount(accountId))!.balance,
      balanceBefore - 600_000,
    );
    assert.deepEqual(errors, []);
  });

  it('at phone width, in English and in Thai, every choice of the switches shows whole', async () => {
    for (const [locale, heading] of [
      ['en-GB', 'Send a message'],
      ['th-TH', 'ส่งข้อความ'],
    ] as const) {
      const watched = await pages.open({ role: 'member', locale, viewport: PHONE });
      const { page } = watched;
      await page.goto('/console/messages/new');
      await expectHeading(page, heading);
      const labels = page.locator('main .mantine-SegmentedControl-label');
      // Write / Template, and the three ways to give recipients.
      assert.equal(await labels.count(), 5);
      const clipped = await labels.evaluateAll((elements) =>
        elements
          .filter((label) => {
            const box = label.getBoundingClientRect();
            return (
              label.scrollWidth > label.clientWidth ||
              label.scrollHeight > label.clientHeight ||
              box.left < 0 ||
              box.right > window.innerWidth
            );
          })
          .map((label) => label.textContent),
      );
      assert.deepEqual(clipped, [], `cut off at phone width (${locale})`);
      // At phone width the navigation is closed, out of the accessibility tree.
      assert.deepEqual(await accessibilityProblems(page, ['banner', 'main']), [], locale);
      await screenshot(page, `compose-switches-phone-${locale}`);
      assertNoErrors(watched);
      await watched.close();
    }
  });

  it('the page in Thai, at phone width, schedules for later in the user’s zone', async () => {
    const { page } = await pages.open({
      role: 'owner',
      locale: 'th-TH',
      viewport: PHONE,
    });
    await page.goto('/console/messages/new');
    await expectHeading(page, 'ส่งข้อความ');
    await page.getByRole('combobox', { name: 'ชื่อผู้ส่ง' }).click();
    await page.getByRole('option', { name: 'NOKSHOP' }).click();
    await page.getByLabel('ข้อความที่จะส่ง').fill(THAI_3_PARTS);
    await page.getByTestId('part-counter').getByText(/3 ส่วน/).waitFor();
    await page.getByLabel('หมายเลข').fill('0812345678\n0812345679');
    await page
      .getByTestId('live-cost')
      .getByText(/= 6 เครดิต/)
      .waitFor();
    await page.getByText('ตั้งเวลาส่ง').click();
    await page.getByLabel('ส่งเวลา').fill('2099-01-02T09:30');
    await screenshot(page, 'compose-thai-phone');
    await page.getByRole('button', { name: 'ตรวจสอบก่อนส่ง' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'ตั้งเวลา' }).waitFor();
    // The viewport only (a whole-page picture leaves a modal's overlay short of the page's
    // end), once the modal has finished coming in.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => {}))),
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'compose-thai-phone-confirm.png') });
    await dialog.getByRole('button', { name: 'ตั้งเวลา' }).click();
    await page.waitForURL(/\/console\/messages\/[0-9a-f-]{36}$/);
    const uuid = page.url().split('/').at(-1)!;
    const message = await pages.server.harness.store.findMessageByUuid(uuid);
    assert.equal(message?.status, 'scheduled');
    // 09:30 in Bangkok (UTC+7) is 02:30 UTC.
    assert.equal(new Date(message!.scheduledAt!).toISOString(), '2099-01-02T02:30:00.000Z');
  });
  it('a member sends from a template, one field left empty as the server allows, and sees the text as it is sent', async () => {
    const h = pages.server.harness;
    await createTemplate(h.store, {
      accountId,
      name: 'Delivery code',
      body: 'Hello {{name}}, your code is {{ code }}.{{note}}',
      nowMs: h.clock.now(),
    });
    const { page, errors } = await pages.open({ role: 'member' });
    await page.goto('/console/messages/new');
    await expectHeading(page, 'Send a message');
    await page.getByRole('combobox', { name: 'Sender name' }).click();
    await page.getByRole('option', { name: 'NOKSHOP' }).click();
    await page.getByText('Template', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'Delivery code' }).click();
    // A field per placeholder, as the domain finds them (`{{ code }}` is `code`).
    for (const name of ['name', 'code', 'note']) await page.getByLabel(`{{${name}}}`).waitFor();
    await page.getByLabel('{{name}}').fill('Mali');
    await page.getByLabel('{{code}}').fill('4821');
    await page
      .getByTestId('template-preview')
      .getByText('Hello Mali, your code is 4821.')
      .waitFor();
    await page
      .getByTestId('left-empty')
      .getByText('Left empty, sent as nothing: {{note}}')
      .waitFor();
    await page
      .getByTestId('part-counter')
      .getByText(/^30 characters · 1 part \(/)
      .waitFor();

    await page.getByLabel('Numbers').fill('0812345678');
    // The empty field does not hold the cost back, nor the send.
    await page
      .getByTestId('live-cost')
      .getByText(/^1 part × 1 recipient = 1 credit \(/)
      .waitFor();
    await screenshot(page, 'compose-template-desktop');
    await page.getByRole('button', { name: 'Check before sending' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check and confirm' });
    await dialog.getByRole('button', { name: 'Send now' }).click();
    await page.waitForURL(/\/console\/messages\/[0-9a-f-]{36}$/);
    const message = await h.store.findMessageByUuid(page.url().split('/').at(-1)!);
    assert.equal(message?.content, 'Hello Mali, your code is 4821.');
    assert.deepEqual(errors, []);

    const thai = await pages.open({
      role: 'member',
      locale: 'th-TH',
      viewport: PHONE,
    });
    await thai.page.goto('/console/messages/new');
    await expectHeading(thai.page, 'ส่งข้อความ');
    await thai.page.getByText('แม่แบบ', { exact: true }).click();
    await thai.page.getByRole('combobox', { name: 'แม่แบบ' }).click();
    await thai.page.getByRole('option', { name: 'Delivery code' }).click();
    await thai.page.getByLabel('{{name}}').fill('มะลิ');
    await thai.page.getByTestId('left-empty').getByText('{{code}}, {{note}}').waitFor();
    await screenshot(thai.page, 'compose-template-th-phone');
    assert.deepEqual(thai.errors, []);
    await thai.close();
  });
});
