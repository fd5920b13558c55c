/// <reference lib="dom" />
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Locator, Page } from 'playwright-core';
import { verifyWebhook } from '../../packages/client/src/webhooks.js';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/domain/clock.js';
import { systemTimers } from '../../src/domain/timers.js';
import {
  createWebhookEndpoint,
  sendTestWebhook,
} from '../../src/domain/webhooks/manage-endpoints.js';
import {
  startWebhookDeliverer,
  type WebhookDeliverer,
} from '../../src/webhooks/webhook-deliverer.js';
import { FONT_STACK } from '../../web/src/lib/font-stack.js';
import { accessibilityProblems } from '../support/accessibility.js';
import {
  assertNoErrors,
  CONSOLE_PEOPLE,
  consoleInChromium,
  DESKTOP,
  expectHeading,
  PHONE,
  screenshot,
  fontsUsed,
  thaiFamilies,
} from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

interface TestEvent {
  type: string;
  timestamp: string;
  data: { endpointId: string; note: string };
}

/** The webhook headers of a request the receiver got, as `verifyWebhook` takes them. */
function webhookHeaders(headers: IncomingHttpHeaders) {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    'webhook-id': one('webhook-id'),
    'webhook-timestamp': one('webhook-timestamp'),
    'webhook-signature': one('webhook-signature'),
  };
}

/** Waits until `receiver` holds `count` requests. */
async function received(receiver: WebhookReceiver, count: number, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (receiver.received.length < count) {
    assert.ok(Date.now() < until, `the receiver got ${receiver.received.length} of ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return receiver.received[count - 1]!;
}

/** How far the page scrolls sideways (0: it fits its window). */
function sideways(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** Fails unless `locator` lies wholly inside the window: not scrolled out of its table. */
async function withinWindow(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  assert.ok(
    box && box.x >= 0 && box.x + box.width <= width,
    `${String(locator)} is off the window`,
  );
}

// One engine is enough for the pages; the console API's own test runs both.
const engine = pageEngine('postgres');
describe(`webhooks in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);
  /** Answers 200 "ok": the deliveries table shows its status and the start of its answer. */
  let receiver: WebhookReceiver;
  /** Answers 500 to everything: a delivery that waits for its next attempt. */
  let failing: WebhookReceiver;
  let deliverer: WebhookDeliverer;
  /** The deliverer's clock: the system's, never behind the harness's (see `before`). */
  let clock: Clock;

  before(async () => {
    receiver = await startWebhookReceiver('/nok/events');
    receiver.answer = () => ({ status: 200 });
    failing = await startWebhookReceiver('/down');
    failing.answer = () => ({ status: 500 });
    const h = pages.server.harness;
    // The console writes on the harness's clock, which stands still: set it to the time of day,
    // so that what it writes (an event's time, the end of a secret's overlap) and what the
    // deliverer does on the system's clock (sign, attempt) are on one time line.
    h.clock.advance(Math.max(0, Date.now() - h.clock.now()));
    clock = { now: () => Math.max(Date.now(), h.clock.now()) };
    // The deliverer of a Nok started with NOK_WEBHOOKS=on and its receivers on this machine.
    const settings = loadConfig({ NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks;
    assert.equal(settings.deliver, true);
    assert.equal(settings.allowPrivateTargets, true);
    deliverer = startWebhookDeliverer({
      store: h.store,
      clock,
      timers: systemTimers,
      logger: pino({ level: 'silent' }),
      settings,
      mail: { post: () => undefined },
      publicUrl: pages.server.origin,
      pollMs: 50,
    });
    pages.beforeStop(() => deliverer.stop());
  });
  after(async () => {
    await receiver?.close();
    await failing?.close();
  });

  it('an owner adds an endpoint, sends a test event the receiver verifies, sees it delivered, rotates the secret and deletes the endpoint', async () => {
    const watched = await pages.open({ role: 'owner', viewport: DESKTOP });
    const { page } = watched;
    await page.goto('/console/webhooks');
    await expectHeading(page, 'Webhooks');
    await page.getByText('No endpoints yet.').waitFor();
    // It is in the owner's menu, beside the API keys.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const links = await nav.getByRole('link').allTextContents();
    assert.equal(links[links.indexOf('API keys') + 1], 'Webhooks');

    // Add: a bad URL is said at its field and sent nowhere.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.getByLabel(/^URL/).fill('ftp://example.com/x');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('Enter a whole URL starting with https:// or http://').waitFor();
    await dialog.getByLabel(/^URL/).fill(receiver.url);
    await dialog.getByLabel(/^Description/).fill('Order system');
    // Every event type is ticked at first, each with what it reports.
    for (const type of ['recipients.final', 'message.completed', 'webhook.test']) {
      assert.equal(await dialog.getByRole('checkbox', { name: type }).isChecked(), true, type);
    }
    await dialog.getByText('Every recipient of a message is final').waitFor();
    await screenshot(page, 'webhooks-add-desktop', { fullPage: false });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    // The secret, at once.
    const secretDialog = page.getByRole('dialog', { name: "The endpoint's signing secret" });
    const secretInput = secretDialog.getByTestId('webhook-secret');
    await secretInput.waitFor();
    const secret = await secretInput.inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'hidden' });

    const card = page.getByRole('listitem', { name: receiver.url, exact: true });
    await card.getByText('Order system').waitFor();
    await card.getByText('Enabled', { exact: true }).waitFor();
    await card.getByText('All events').waitFor();
    const [endpoint] = await pages.server.harness.store.listWebhookEndpoints(null);
    assert.ok(endpoint);
    assert.equal(endpoint.url, receiver.url);
    assert.equal(endpoint.secret, secret);
    assert.deepEqual(await accessibilityProblems(page), []);
    await screenshot(page, 'webhooks-desktop');

    // A test event: the receiver gets it, signed with the secret the page showed.
    await card.getByRole('button', { name: 'Send test event' }).click();
    // An event id is msg_ and base64url: letters, digits, _ and -.
    await page.getByText(/^Test event msg_[\w-]+ is on its way/).waitFor();
    const first = await received(receiver, 1);
    const event = await verifyWebhook<TestEvent>(
      first.body,
      webhookHeaders(first.headers),
      secret,
      {
        now: clock.now(),
      },
    );
    assert.equal(event.type, 'webhook.test');
    assert.equal(event.data.endpointId, endpoint.uuid);
    const eventId = webhookHeaders(first.headers)['webhook-id']!;

    // Its delivery: delivered, 200, the start of the answer.
    await card.getByRole('link', { name: 'Deliveries' }).click();
    await expectHeading(page, 'Recent deliveries');
    await page.getByText(receiver.url).waitFor();
    const table = page.getByRole('table', { name: 'Deliveries to this endpoint, newest first' });
    const row = table.locator(`tr[data-delivery="${eventId}"]`);
    await row.getByText('Delivered').waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    assert.equal(cells[0], `webhook.test${eventId}`);
    assert.equal(cells[2], '200');
    assert.match(cells[3]!, /^[\d,]+ ms$/);
    assert.equal(cells[4], '1');
    assert.doesNotMatch(cells[5]!, /—|Next attempt/, 'a time, and no next attempt once delivered');
    assert.equal(cells[6], 'ok');
    await withinWindow(page, row.getByRole('button', { name: `Resend ${eventId}` }));
    assert.deepEqual(await accessibilityProblems(page), []);
    await screenshot(page, 'webhook-deliveries-desktop');

    // Resend: the same event, posted again.
    await row.getByRole('button', { name: `Resend ${eventId}` }).click();
    const again = await received(receiver, 2);
    assert.equal(webhookHeaders(again.headers)['webhook-id'], eventId);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();

    // Rotate: the new secret signs at once, and the old one still does, for the overlap.
    await page.getByRole('link', { name: '← Webhooks' }).click();
    await expectHeading(page, 'Webhooks');
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the secret?' });
    await confirm.getByText(`A new secret for ${receiver.url}`).waitFor();
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    const rotatedDialog = page.getByRole('dialog', { name: 'The new signing secret' });
    await rotatedDialog.getByText(/^Until .+ Nok signs every request with both/).waitFor();
    const rotated = await rotatedDialog.getByTestId('webhook-secret').inputValue();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await screenshot(page, 'webhooks-rotated-desktop', { fullPage: false });
    await rotatedDialog.getByRole('button', { name: 'Done' }).click();
    await rotatedDialog.waitFor({ state: 'hidden' });

    await card.getByRole('button', { name: 'Send test event' }).click();
    const third = await received(receiver, 3);
    assert.equal(webhookHeaders(third.headers)['webhook-signature']!.split(' ').length, 2);
    for (const key of [rotated, secret]) {
      const verified = await verifyWebhook<TestEvent>(
        third.body,
        webhookHeaders(third.headers),
        key,
        { now: clock.now() },
      );
      assert.equal(verified.type, 'webhook.test');
    }

    // Shown again on demand: the new one.
    await card.getByRole('button', { name: 'Show secret' }).click();
    const shownDialog = page.getByRole('dialog', { name: 'Signing secret' });
    assert.equal(await shownDialog.getByTestId('webhook-secret').inputValue(), rotated);
    await shownDialog.getByRole('button', { name: 'Done' }).click();
    await shownDialog.waitFor({ state: 'hidden' });

    // Edit: a few event types only.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the endpoint' });
    assert.equal(await edit.getByLabel(/^URL/).inputValue(), receiver.url);
    for (const type of [
      'message.released',
      'message.cancelled',
      'sender.reviewed',
      'balance.low',
    ]) {
      await edit.getByRole('checkbox', { name: type }).uncheck();
    }
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    for (const type of ['recipients.final', 'message.completed', 'webhook.test']) {
      await card.getByText(type, { exact: true }).waitFor();
    }
    assert.equal(await card.getByText('All events').count(), 0);

    // Disable, with the reason said; enable again.
    await card.getByRole('button', { name: 'Disable' }).click();
    await card.getByText('Disabled: turned off by a person').waitFor();
    await card.getByText('Disabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.getByText('Enabled', { exact: true }).waitFor();
    assert.equal(await card.getByText(/^Disabled:/).count(), 0);

    // Delete, once confirmed.
    await card.getByRole('button', { name: 'Delete' }).click();
    const deleting = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await deleting.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    assert.deepEqual(await pages.server.harness.store.listWebhookEndpoints(null), []);

    const actions = (
      await pages.server.harness.store.listAuditEvents({ offset: 0, limit: 50 })
    ).items
      .map((line) => line.action)
      .filter((action) => action.startsWith('webhook.'))
      .reverse();
    assert.deepEqual(actions, [
      'webhook.create',
      'webhook.rotate-secret',
      'webhook.update',
      'webhook.disable',
      'webhook.enable',
      'webhook.delete',
    ]);
    assertNoErrors(watched);
    await watched.close();
  });

  it('reads in Thai and at phone width, a failing delivery waiting for its next attempt', async () => {
    const h = pages.server.harness;
    const owner = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    const accountId = owner.accountId!;
    const good = await createWebhookEndpoint(h.store, {
      accountId,
      url: receiver.url,
      description: 'ระบบสั่งซื้อ',
      eventTypes: ['recipients.final', 'message.completed'],
      nowMs: h.clock.now(),
    });
    const down = await createWebhookEndpoint(h.store, {
      accountId,
      url: `${failing.url}/a/rather/long/path/that/has/to/wrap/at/phone/width?token=abcdef0123456789`,
      nowMs: h.clock.now(),
    });
    const before = receiver.received.length;
    await sendTestWebhook(h.store, { accountId }, good.uuid, h.clock.now());
    await received(receiver, before + 1);
    const failed = failing.received.length;
    await sendTestWebhook(h.store, { accountId }, down.uuid, h.clock.now());
    await received(failing, failed + 1);

    const thai = await pages.open({ role: 'owner', locale: 'th-TH', viewport: DESKTOP });
    await thai.page.goto('/console/webhooks');
    await expectHeading(thai.page, 'เว็บฮุก');
    const installed = thaiFamilies();
    const expected = FONT_STACK.map((family) => family.replaceAll('"', '')).find((family) =>
      installed.has(family),
    );
    assert.ok(expected, 'a family of the font stack draws Thai here');
    assert.deepEqual(
      (await fontsUsed(thai.page, 'h1')).map((font) => font.familyName),
      [expected],
    );
    const goodCard = thai.page.getByRole('listitem', { name: receiver.url, exact: true });
    await goodCard.getByText('ระบบสั่งซื้อ').waitFor();
    await goodCard.getByText('เปิดอยู่').waitFor();
    await thai.page
      .getByRole('listitem', { name: down.url, exact: true })
      .getByText('ทุกเหตุการณ์')
      .waitFor();
    await screenshot(thai.page, 'webhooks-thai-desktop');
    await thai.page.getByRole('button', { name: 'เพิ่มปลายทาง' }).click();
    const add = thai.page.getByRole('dialog', { name: 'เพิ่มปลายทางเว็บฮุก' });
    await add.getByText('ผู้รับทุกรายของข้อความได้สถานะสุดท้ายแล้ว', { exact: false }).waitFor();
    await screenshot(thai.page, 'webhooks-thai-add', { fullPage: false });
    await add.getByRole('button', { name: 'ยกเลิก' }).click();
    await thai.page.goto(`/console/webhooks/${down.uuid}`);
    await expectHeading(thai.page, 'การส่งล่าสุด');
    const pendingRow = thai.page.locator('tbody tr').first();
    await pendingRow.getByText('รอส่ง').waitFor();
    await pendingRow.getByText('500', { exact: true }).waitFor();
    await pendingRow.getByText(/^ส่งครั้งถัดไป /).waitFor();
    await withinWindow(thai.page, pendingRow.getByRole('button', { name: /^ส่งใหม่ msg_/ }));
    await screenshot(thai.page, 'webhook-deliveries-thai-desktop');
    assertNoErrors(thai);
    await thai.close();

    const phone = await pages.open({ role: 'owner', viewport: PHONE });
    const { page } = phone;
    await page.goto('/console/webhooks');
    await expectHeading(page, 'Webhooks');
    await page.getByRole('listitem', { name: down.url, exact: true }).waitFor();
    assert.ok((await sideways(page)) <= 0, 'the endpoints fit the phone');
    assert.deepEqual(await accessibilityProblems(page, ['banner', 'main']), []);
    await screenshot(page, 'webhooks-phone');

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('dialog', { name: 'Add a webhook endpoint' }).getByLabel(/^URL/).waitFor();
    await screenshot(page, 'webhooks-add-phone', { fullPage: false });
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`/console/webhooks/${down.uuid}`);
    await expectHeading(page, 'Recent deliveries');
    // At phone width a block each, every field labelled, the resend within reach.
    const list = page.getByRole('list', { name: 'Deliveries to this endpoint, newest first' });
    const item = list.getByRole('listitem').first();
    await item.getByText('Pending').waitFor();
    await item.getByText(/^HTTP 500 · [\d,]+ ms · \d+ attempts?$/).waitFor();
    await item.getByText(/^Next attempt /).waitFor();
    await item.getByRole('button', { name: /^Resend msg_/ }).waitFor();
    assert.equal(await page.getByRole('table').count(), 0);
    assert.ok((await sideways(page)) <= 0, 'the deliveries fit the phone');
    assert.deepEqual(await accessibilityProblems(page, ['banner', 'main']), []);
    await screenshot(page, 'webhook-deliveries-phone');
    assertNoErrors(phone);
    await phone.close();
  });

  it('keeps a member out of the page and their menu', async () => {
    const watched = await pages.open({ role: 'member' });
    const { page } = watched;
    await page.goto('/console/webhooks');
    await expectHeading(page, 'Not available to you');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    assert.equal(await nav.getByRole('link', { name: 'Webhooks' }).count(), 0);
    assertNoErrors(watched);
    await watched.close();
  });
});
