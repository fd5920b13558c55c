import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { adjustCredits } from '../../src/domain/credits/adjust-credits.js';
import {
  assertNoErrors,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
} from '../support/console-browser.js';
import { startDeliveryRig, type DeliveryRig } from '../support/delivery-rig.js';
import { pageEngine } from '../support/engines.js';

const DAY_MS = 86_400_000;

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');

describe(`messages in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  let rig: DeliveryRig | undefined;
  let key: string;
  let sender: string;
  let sent: { uuid: string; refNo: string };
  let scheduled: { uuid: string; refNo: string; cost: number };

  before(async () => {
    const h = pages.server.harness;
    const owner = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    const accountId = owner.accountId!;
    await adjustCredits(h.store, {
      accountId,
      amount: 10_000,
      note: 'Opening credits',
      nowMs: h.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    sender = 'NokShop';
    await h.sender(accountId, sender);
    key = (await h.key(accountId)).key;
    sent = await h.send(
      { key },
      {
        sender,
        content: 'ขอบคุณที่ใช้บริการ Nok — your order has shipped',
        msisdns: [
          ...Array.from({ length: 40 }, (_, i) => `08100000${String(i).padStart(2, '0')}`),
          '0830000001',
          '0830000002',
          'not-a-number',
        ],
      },
    );
    scheduled = await h.send(
      { key },
      {
        sender,
        content: 'Flash sale tomorrow at 9:00',
        msisdns: ['0812345678', '0812345679'],
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      },
    );
  });
  pages.beforeStop(() => rig?.close());

  it('polls a message that has not changed for nothing: the browser revalidates and gets 304s, and stops asking once the message is final', async () => {
    const h = pages.server.harness;
    const waiting: { uuid: string; refNo: string } = await h.send(
      { key },
      {
        sender,
        content: 'Doors open at 10',
        msisdns: ['0812345670'],
        scheduledTime: new Date(h.clock.now() + DAY_MS).toISOString(),
      },
    );
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    // The page's own timers run on a clock the test moves: no waiting for real polls.
    await page.clock.install();
    const path = `/console/api/messages/${waiting.uuid}`;
    const isPoll = (url: string | undefined) => url !== undefined && new URL(url).pathname === path;
    // What the page got (Playwright's responses: a revalidated answer shows as the cached 200)
    // and what came over the wire (DevTools' raw status: 304 when the server sent no body).
    const answers: Promise<{ ifNoneMatch?: string; bodyBytes: number }>[] = [];
    page.on('response', (response) => {
      if (!isPoll(response.url())) return;
      answers.push(
        (async () => ({
          ifNoneMatch: (await response.request().allHeaders())['if-none-match'],
          bodyBytes: (await response.request().sizes()).responseBodySize,
        }))(),
      );
    });
    const devtools = await watched.context.newCDPSession(page);
    await devtools.send('Network.enable');
    const urls = new Map<string, string>();
    const wire = new Map<string, number>();
    devtools.on('Network.requestWillBeSent', (event) =>
      urls.set(event.requestId, event.request.url),
    );
    devtools.on('Network.responseReceivedExtraInfo', (event) =>
      wire.set(event.requestId, event.statusCode),
    );
    const wireStatuses = () =>
      [...wire].filter(([id]) => isPoll(urls.get(id))).map(([, status]) => status);
    /** Moves the page's clock on by `ms` and waits for the poll that falls due to finish. */
    async function poll(ms: number) {
      const seen = wireStatuses().length;
      const finished = page.waitForEvent('requestfinished', (request) => isPoll(request.url()));
      await page.clock.runFor(ms);
      await finished;
      // DevTools may report the raw status after the request has finished: wait for it too.
      for (let waited = 0; wireStatuses().length === seen && waited < 5_000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    await page.goto(`/console/messages/${waiting.uuid}`);
    await expectHeading(page, waiting.refNo);
    await page.getByText('Waiting for its time').waitFor();
    // Scheduled: asked again every 30 s, and nothing changed, so each answer is a bodiless 304.
    await poll(30_000);
    await poll(30_000);
    assert.deepEqual(wireStatuses(), [200, 304, 304]);
    const [first, ...polls] = await Promise.all(answers);
    assert.ok(first!.bodyBytes > 0);
    assert.equal(polls.length, 2);
    for (const answer of polls) {
      assert.match(answer.ifNoneMatch ?? '', /^W\//, 'the browser sends the ETag back');
      assert.equal(answer.bodyBytes, 0, 'no body came');
    }

    // Cancelled: the next poll brings the change, and then the page asks no more.
    const cancelled = await h.request({
      method: 'POST',
      url: `/api/v2/sms/${waiting.uuid}/cancel`,
      key,
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    await poll(30_000);
    await page.getByText('Waiting for its time').waitFor({ state: 'detached' });
    await page.getByText('Cancelled', { exact: true }).first().waitFor();
    assert.equal(wireStatuses().at(-1), 200);
    const asked = wireStatuses().length;
    let later = 0;
    page.on('request', (request) => {
      if (isPoll(request.url())) later++;
    });
    await page.clock.runFor(10 * 60_000);
    // A poll the timers started would have been sent before this round trip to the page ends.
    await page.evaluate(() => document.readyState);
    assert.equal(later, 0, 'no poll once the message is final');
    assert.equal(wireStatuses().length, asked);
    await devtools.detach();
    assertNoErrors(watched);
    await watched.close();
  });

  it('an owner filters the list, watches a message reach final statuses live, filters the failed ones and exports them', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/messages');
    await expectHeading(page, 'Messages');
    const table = page.getByRole('table', { name: 'Messages' });
    await table.getByRole('link', { name: sent.refNo }).waitFor();
    await table.getByRole('link', { name: scheduled.refNo }).waitFor();
    await screenshot(page, 'messages-list');

    await page.getByLabel('Status', { exact: true }).selectOption('scheduled');
    await page.waitForURL(/status=scheduled/);
    await table.getByRole('link', { name: sent.refNo }).waitFor({ state: 'detached' });
    assert.equal(await table.locator('tbody tr').count(), 1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Search').fill('shipped');
    await table.getByRole('link', { name: scheduled.refNo }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: sent.refNo }).click();

    await expectHeading(page, sent.refNo);
    await page.getByText('Updating live').waitFor();
    // Delivery starts while the page is open: the page follows it without a reload.
    rig = await startDeliveryRig(pages.server.harness, [
      {
        name: 'sim',
        smsc: {
          invalidPrefixes: ['66830'],
          deliveredRatio: 0.6,
          failedRatio: 0.3,
          expiredRatio: 0.1,
          receiptDelayMs: 100,
        },
      },
    ]);
    await rig.materialise();
    await page.getByText('43 of 43 recipients have a final status').waitFor({ timeout: 30_000 });
    await page.getByText('Updating live').waitFor({ state: 'detached' });
    // The recipients shown follow too: none is left pending.
    await page.waitForFunction(() => {
      const cells = document.querySelectorAll('table[aria-label="Recipients"] tbody td');
      return cells.length > 0 && !Array.from(cells).some((cell) => cell.textContent === 'Pending');
    });
    await page
      .getByRole('img', { name: 'Recipients per delivery status' })
      .or(page.locator('.recharts-surface').first())
      .first()
      .waitFor();
    const counts = await pages.server.harness.store.messageCountsByUuid(sent.uuid);
    const failed = counts.get('failed') ?? 0;
    assert.ok(failed > 0, 'the simulator failed some numbers');
    await screenshot(page, 'message-page');

    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    const recipients = page.getByRole('table', { name: 'Recipients', exact: true });
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('table[aria-label="Recipients"] tbody tr').length ===
        Math.min(n, 50),
      failed,
    );
    const statuses = await recipients.locator('tbody tr .mantine-Badge-root').allTextContents();
    assert.ok(
      statuses.every((s) => s === 'Failed'),
      statuses.join(),
    );

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export “Failed” as CSV' }).click(),
    ]);
    assert.equal(
      download.suggestedFilename(),
      `${sent.refNo}-recipients-failed.csv`.replace(/[^\w.-]/g, '_'),
    );
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines[0], 'seq,msisdn,status,updatedAt');
    assert.equal(lines.length - 1, failed);
    assert.ok(lines.slice(1).every((line) => line.split(',')[2] === 'failed'));
    assertNoErrors(watched);
    await watched.close();
  });

  it('a member cancels a scheduled message and the owner sees the refund in the ledger', async () => {
    const member = await pages.open({ role: 'member' });
    await member.page.goto(`/console/messages/${scheduled.uuid}`);
    await expectHeading(member.page, scheduled.refNo);
    await member.page.getByRole('button', { name: 'Cancel sending' }).click();
    await member.page.getByRole('button', { name: 'Cancel and refund' }).click();
    await member.page
      .getByText(`${scheduled.cost} credits were refunded`, { exact: false })
      .waitFor();
    await member.page.getByText('Cancelled', { exact: true }).first().waitFor();
    assertNoErrors(member);
    await member.close();

    const owner = await pages.open({ role: 'owner' });
    await owner.page.goto('/console/credits');
    await expectHeading(owner.page, 'Credits');
    await owner.page.getByText('Refund', { exact: false }).first().waitFor();
    assertNoErrors(owner);
    await owner.close();
  });

  it('reads well at phone width and in Thai', async () => {
    const phone = await pages.open({ role: 'owner', viewport: PHONE });
    await phone.page.goto('/console/messages');
    await expectHeading(phone.page, 'Messages');
    await phone.page.getByRole('link', { name: sent.refNo }).waitFor();
    await screenshot(phone.page, 'messages-list-phone');
    await phone.page.goto(`/console/messages/${sent.uuid}`);
    await expectHeading(phone.page, sent.refNo);
    await phone.page.getByText('43 of 43 recipients have a final status').waitFor();
    await screenshot(phone.page, 'message-page-phone');
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the page is ${width}px wide at phone width`);
    assertNoErrors(phone);
    await phone.close();

    const thai = await pages.open({ role: 'owner', locale: 'th-TH' });
    await thai.page.goto(`/console/messages/${sent.uuid}`);
    await expectHeading(thai.page, sent.refNo);
    await thai.page.getByText('ผู้รับ 43 จาก 43 รายมีสถานะสุดท้ายแล้ว').waitFor();
    await screenshot(thai.page, 'message-page-th');
    await thai.page.goto('/console/messages');
    await expectHeading(thai.page, 'ข้อความ');
    await screenshot(thai.page, 'messages-list-th');
    assertNoErrors(thai);
    await thai.close();
  });

  it('an admin reads any account’s message without a cancel button', async () => {
    const admin = await pages.open({ role: 'admin' });
    const owner = (await pages.server.harness.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    await admin.page.goto(`/console/admin/accounts/${owner.accountId}`);
    await admin.page.getByRole('link', { name: 'Its messages' }).click();
    await expectHeading(admin.page, 'Messages');
    await admin.page.waitForURL(new RegExp(`accountId=${owner.accountId}`));
    await admin.page.getByRole('link', { name: scheduled.refNo }).click();
    await expectHeading(admin.page, scheduled.refNo);
    await admin.page.getByRole('table', { name: 'Recipients', exact: true }).waitFor();
    assert.equal(await admin.page.getByRole('button', { name: 'Cancel sending' }).count(), 0);
    // Cancelled before its time: no delivery to chart.
    await admin.page.getByText('Cancelled before its time: nothing was sent').waitFor();
    await screenshot(admin.page, 'admin-message-page');
    assertNoErrors(admin);
    await admin.close();
  });
  it('takes a search of 1,000 emoji whole, as the server counts it, and says at the field when it is longer', async () => {
    // 1,000 characters, the most the server takes in a search, and 2,000 UTF-16 units: a
    // maxLength of 1,000 would have searched for half of them.
    const content = '🙂'.repeat(999) + '🎉';
    const smiles: { refNo: string } = await pages.server.harness.send(
      { key },
      { sender, content, msisdns: ['0812345670'] },
    );
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/messages');
    await expectHeading(page, 'Messages');
    const search = page.getByLabel('Search');
    await search.fill(content + '!');
    await page.getByText('At most 1,000 characters').waitFor();
    await screenshot(page, 'messages-search-too-long');
    await search.fill(content);
    await page.getByText('At most 1,000 characters').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.searchParams.get('search') === content);
    // The earlier page stays shown until the filtered one arrives: wait for that one.
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="Messages"] tbody tr').length === 1,
    );
    const table = page.getByRole('table', { name: 'Messages' });
    await table.getByRole('link', { name: smiles.refNo }).waitFor();
    assertNoErrors(watched);
    await watched.close();
  });

  it('follows a message being sent by reading its first recipients page again, not every page shown', async () => {
    const h = pages.server.harness;
    const many = await h.send<{ uuid: string; refNo: string }>(
      { key },
      {
        sender,
        content: 'Your parcel is on its way',
        msisdns: Array.from({ length: 120 }, (_, i) => `08200000${String(i).padStart(2, '0')}`),
      },
    );
    const message = (await h.store.findMessageByUuid(many.uuid))!;
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto(`/console/messages/${many.uuid}`);
    await expectHeading(page, many.refNo);
    await page.getByText('Updating live').waitFor();
    const rows = page.locator('table[aria-label="Recipients"] tbody tr');
    for (const shown of [100, 120]) {
      await page.getByRole('button', { name: 'Show more' }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('table[aria-label="Recipients"] tbody tr').length === n,
        shown,
      );
    }

    const pagesAsked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith(`/messages/${many.uuid}/recipients`))
        pagesAsked.push(url.searchParams.get('after') ?? '');
    });
    const isMessage = (url: string) => new URL(url).pathname.endsWith(`/messages/${many.uuid}`);
    // Delivery moves the counts; the page's next poll sees them.
    await h.store.setMessageCounts(
      message.id,
      new Map([
        ['pending', 118],
        ['success', 2],
      ]),
    );
    await page.waitForResponse((r) => isMessage(r.url()) && r.status() === 200);
    await page.waitForResponse((r) => r.url().includes('/recipients?after=0'));
    // A poll after the refresh: whatever else the refresh read would have been asked by now.
    await page.waitForResponse((r) => isMessage(r.url()));
    assert.deepEqual(pagesAsked, ['0']);
    assert.equal(await rows.count(), 120, 'the later pages are still shown');
    assertNoErrors(watched);
    await watched.close();
  });
});
