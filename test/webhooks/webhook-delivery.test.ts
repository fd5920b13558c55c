// Webhooks end to end, on both engines: real sends delivered over SMPP by the built-in SMSC,
// events written by the delivery path, posted by deliverers to a real HTTP receiver on
// 127.0.0.1, and checked there as a customer would: every signature verified (with the
// Standard Webhooks library and with the client's verifier), every event id received once.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../packages/client/src/webhooks.js';
import type { WebhookSettings } from '../../src/domain/webhooks/webhook-settings.js';
import type { Clock } from '../../src/domain/clock.js';
import type { OutgoingMail } from '../../src/domain/mail/mailer.js';
import { reviewSenderRequest } from '../../src/domain/senders/review-sender-request.js';
import { submitSenderRequest } from '../../src/domain/senders/submit-sender-request.js';
import type { Store } from '../../src/domain/store.js';
import { systemTimers } from '../../src/domain/timers.js';
import {
  createWebhookEndpoint,
  listWebhookDeliveries,
  rotateWebhookSecret,
  sendTestWebhook,
} from '../../src/domain/webhooks/manage-endpoints.js';
import type {
  FinalRecipient as StoredFinal,
  WebhookEndpoint,
} from '../../src/domain/webhooks/webhook-store.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { releaseDueMessages } from '../../src/scheduler/release-due-messages.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createStore } from '../../src/storage/store.js';
import {
  startWebhookDeliverer,
  type WebhookDeliverer,
} from '../../src/webhooks/webhook-deliverer.js';
import { startDeliveryRig, eventually, type DeliveryRig } from '../support/delivery-rig.js';
import { pdfBytes, pngBytes } from '../support/documents.js';
import { testEngines } from '../support/engines.js';
import { FakeClock } from '../support/fake-clock.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const silent = pino({ level: 'silent' });

const SETTINGS: WebhookSettings = {
  deliver: true,
  batchMax: 100,
  batchWaitMs: 200,
  timeoutMs: 1_000,
  retryWindowMs: 72 * 3_600_000,
  secretOverlapMs: 3_600_000,
  concurrency: 8,
  allowPrivateTargets: true,
};

interface Event {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

interface FinalRecipient {
  seq: number;
  msisdn: string;
  status: string;
  updatedAt: string | null;
}

function numbers(count: number, first: number): string[] {
  return Array.from({ length: count }, (_, i) => `0${first + i}`);
}

/** A clock that runs with the system's and can be moved ahead, for retries hours apart. */
class ShiftedClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

for (const engine of testEngines()) {
  describe(`webhooks delivered (${engine.name})`, () => {
    let h: Harness;
    let rig: DeliveryRig | undefined;
    let receiver: WebhookReceiver;
    let deliverers: WebhookDeliverer[] = [];
    const mails: OutgoingMail[] = [];
    const closers: (() => Promise<void>)[] = [];

    before(async () => {
      h = await createHarness(engine);
    });
    afterEach(async () => {
      await Promise.all(deliverers.map((d) => d.stop()));
      deliverers = [];
      await rig?.close();
      rig = undefined;
      await receiver?.close();
      for (const close of closers.splice(0)) await close();
    });
    after(() => h.close());

    function deliver(
      store: Store,
      options: {
        clock?: Clock;
        settings?: Partial<WebhookSettings>;
        metrics?: Metrics;
        drainMs?: number;
      } = {},
    ): WebhookDeliverer {
      const deliverer = startWebhookDeliverer({
        store,
        clock: options.clock ?? { now: () => Date.now() },
        timers: systemTimers,
        logger: silent,
        settings: { ...SETTINGS, ...options.settings },
        mail: { post: (mail) => mails.push(mail) },
        publicUrl: 'http://127.0.0.1:8080',
        pollMs: 20,
        metrics: options.metrics,
        drainMs: options.drainMs,
      });
      deliverers.push(deliverer);
      return deliverer;
    }

    /** A second store of its own connections on the same database: another process's. */
    async function secondStore(): Promise<Store> {
      if (engine.name === 'sqlite') return h.store;
      const database = openDatabase(h.db.url, { schema: h.db.schema });
      closers.push(() => database.close());
      return createStore(database.db);
    }

    async function endpointFor(customer: Customer, url: string, eventTypes: string[] = []) {
      return createWebhookEndpoint(h.store, {
        accountId: customer.account.id,
        url,
        eventTypes,
        nowMs: Date.now(),
      });
    }

    /**
     * Every request received, verified both ways; throws on any bad signature. Requests sent on
     * a clock moved ahead are verified at their own time, by the client's verifier alone (the
     * library reads the system's clock).
     */
    async function verified(
      endpoint: WebhookEndpoint,
      secrets = [endpoint.secret],
      { shifted = false } = {},
    ) {
      const events: { id: string; event: Event; status: number | null }[] = [];
      for (const request of receiver.received) {
        const headers = {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        };
        for (const secret of secrets) {
          if (!shifted) new Webhook(secret).verify(request.body, headers);
          const now = shifted ? Number(headers['webhook-timestamp']) * 1000 : Date.now();
          await verifyWebhook(request.body, headers, secret, { now });
        }
        events.push({
          id: headers['webhook-id'],
          event: JSON.parse(request.body) as Event,
          status: request.status,
        });
      }
      return events;
    }

    async function allRecipients(customer: Customer, uuid: string) {
      const rows: FinalRecipient[] = [];
      for (let after = 0; ;) {
        const response = await h.request({
          method: 'GET',
          url: `/api/v2/sms/${uuid}/recipients?after=${after}`,
          key: customer.key,
        });
        const page = response.json() as {
          data: FinalRecipient[];
          hasMore: boolean;
          nextCursor: number;
        };
        rows.push(...page.data);
        if (!page.hasMore) return rows;
        after = page.nextCursor;
      }
    }

    it('posts every event type signed, once per id, with two deliverers sharing the work', async () => {
      const customer = await h.customer({ credits: 1_500 });
      await h.store.updateAccountSettings(customer.account.id, { lowBalanceThreshold: 1_000 });
      receiver = await startWebhookReceiver();
      const endpoint = await endpointFor(customer, receiver.url);
      rig = await startDeliveryRig(h, [
        {
          name: 'sim',
          smsc: {
            deliveredRatio: 0.8,
            failedRatio: 0.1,
            expiredRatio: 0.05,
            rejectedRatio: 0.05,
            receiptDelayMs: { min: 0, max: 200 },
          },
        },
      ]);
      deliver(h.store);
      deliver(await secondStore());

      // 1,000 recipients: their final statuses, the message completed, the balance under 1,000.
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Hello',
        msisdns: numbers(1000, 810000000),
      });
      await rig.materialise();
      // A scheduled message released, another cancelled; a sender name reviewed; a test event.
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const released = await h.send(customer, {
        sender: customer.sender,
        content: 'Later',
        msisdns: ['0810000001'],
        scheduledTime: later,
      });
      const cancelled = await h.send(customer, {
        sender: customer.sender,
        content: 'Never',
        msisdns: ['0810000002'],
        scheduledTime: later,
      });
      const cancel = await h.request({
        method: 'POST',
        url: `/api/v2/sms/${cancelled.uuid}/cancel`,
        key: customer.key,
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assert.deepEqual(await releaseDueMessages(h.store, Date.now() + 7_200_000), [
        (await h.store.findMessageByUuid(released.uuid))!.id,
      ]);
      const { request } = await submitSenderRequest(h.store, {
        accountId: customer.account.id,
        actorUserId: null as unknown as number,
        ip: null,
        name: 'HOOKED',
        details: {
          purpose: 'otp',
          sampleMessages: ['Your code is 1'],
          registrationNumber: '0105551234567',
        },
        documents: [
          { fileName: 'certificate.pdf', declaredType: 'application/pdf', content: pdfBytes() },
          { fileName: 'id.png', declaredType: 'image/png', content: pngBytes() },
        ],
        maxDocumentBytes: 64 * 1024,
        nowMs: Date.now(),
      });
      await reviewSenderRequest(h.store, {
        requestId: request.id,
        actorUserId: null as unknown as number,
        ip: null,
        decision: 'reject',
        note: 'Show the trade registration',
        nowMs: Date.now(),
      });
      await sendTestWebhook(h.store, { accountId: customer.account.id }, endpoint.uuid, Date.now());

      const finalSeqs = () =>
        receiver.received
          .filter((r) => r.body.includes('"recipients.final"'))
          .reduce(
            (n, r) =>
              n +
              (JSON.parse(r.body) as Event & { data: { recipients: [] } }).data.recipients.length,
            0,
          );
      await eventually(
        async () =>
          finalSeqs() >= 1000 &&
          receiver.received.some((r) => r.body.includes('"message.completed"')),
        60_000,
        'every final status and the completed message at the receiver',
      );
      // Whatever else is still to come has come within a few batch windows.
      await new Promise((resolve) => setTimeout(resolve, 1_000));

      const events = await verified(endpoint);
      const ids = events.map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'an event id was posted twice');
      const types = new Set(events.map((e) => e.event.type));
      assert.deepEqual([...types].sort(), [
        'balance.low',
        'message.cancelled',
        'message.completed',
        'message.released',
        'recipients.final',
        'sender.reviewed',
        'webhook.test',
      ]);

      // Each recipient once, with the status the API shows, in events of one message, ≤ 100 each.
      const stored = new Map((await allRecipients(customer, uuid)).map((r) => [r.seq, r]));
      const seen = new Map<number, FinalRecipient>();
      let batches = 0;
      for (const { event } of events.filter((e) => e.event.type === 'recipients.final')) {
        const data = event.data as { messageUuid: string; recipients: FinalRecipient[] };
        if (data.messageUuid !== uuid) continue;
        batches++;
        assert.ok(data.recipients.length <= SETTINGS.batchMax);
        for (const recipient of data.recipients) {
          assert.ok(!seen.has(recipient.seq), `recipient ${recipient.seq} reported twice`);
          seen.set(recipient.seq, recipient);
        }
      }
      assert.equal(seen.size, 1000);
      assert.ok(batches < 100, `${batches} requests for 1,000 recipients: not batched`);
      for (const [seq, recipient] of seen) {
        assert.deepEqual(recipient, stored.get(seq));
        assert.notEqual(recipient.status, 'pending');
      }

      const completed = events.filter((e) => e.event.type === 'message.completed');
      assert.equal(completed.length, 1);
      const message = (
        await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}`, key: customer.key })
      ).json() as { drSummary: Record<string, number> };
      assert.deepEqual(completed[0]!.event.data.drSummary, message.drSummary);

      const low = events.find((e) => e.event.type === 'balance.low')!.event.data;
      assert.deepEqual(low, { balance: 500, threshold: 1_000 });
      const reviewed = events.find((e) => e.event.type === 'sender.reviewed')!.event.data;
      assert.deepEqual(reviewed, {
        name: 'HOOKED',
        decision: 'rejected',
        note: 'Show the trade registration',
      });
      assert.equal(
        events.find((e) => e.event.type === 'message.cancelled')!.event.data.uuid,
        cancelled.uuid,
      );
      assert.equal(
        events.find((e) => e.event.type === 'message.released')!.event.data.uuid,
        released.uuid,
      );
      for (const { event } of events) assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
    });

    it('sends only the types an endpoint asked for, and nothing to an account without one', async () => {
      const customer = await h.customer();
      const other = await h.customer();
      receiver = await startWebhookReceiver();
      await endpointFor(customer, receiver.url, ['message.completed']);
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { deliveredRatio: 1 } }]);
      deliver(h.store);
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Only the end',
        msisdns: numbers(50, 820000000),
      });
      await h.send(other, {
        sender: other.sender,
        content: 'Nobody listens',
        msisdns: numbers(50, 830000000),
      });
      await rig.materialise();
      await eventually(async () => receiver.received.length >= 1, 30_000, 'the completed event');
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.deepEqual(
        receiver.received.map((r) => (JSON.parse(r.body) as Event).type),
        ['message.completed'],
      );
      assert.equal((JSON.parse(receiver.received[0]!.body) as Event).data.uuid, uuid);
      const left = await h.db.database.db
        .selectFrom('webhook_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(left.n), 0);
    });

    it('gets everything once to a receiver that fails, times out and answers 500 for a while', async () => {
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      let mood: 'refuse' | 'hang' | 'ok' = 'refuse';
      receiver.answer = () =>
        mood === 'ok' ? { status: 200 } : mood === 'hang' ? 'hang' : { status: 500 };
      const endpoint = await endpointFor(customer, receiver.url);
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { deliveredRatio: 1 } }]);
      const clock = new ShiftedClock();
      deliver(h.store, { clock, settings: { timeoutMs: 300 } });
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Through the storm',
        msisdns: numbers(300, 840000000),
      });
      await rig.materialise();
      const tried = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
      await eventually(async () => receiver.received.length > 0, 30_000, 'a first attempt');
      // Every event written and refused once before the receiver changes its mood.
      const outboxLeft = async () =>
        Number(
          (
            await h.db.database.db
              .selectFrom('webhook_outbox')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      await eventually(
        async () =>
          (await h.store.findMessageByUuid(uuid))!.completedAt !== null &&
          (await outboxLeft()) === 0 &&
          (
            await listWebhookDeliveries(h.store, { accountId: null }, endpoint.uuid, {
              limit: 1000,
            })
          ).every((d) => d.attempts > 0),
        30_000,
        'the send to finish and every event to be refused',
      );
      // Past the first retries (5 s, then 5 min): each is tried again and times out.
      mood = 'hang';
      clock.offset += 10_000;
      await eventually(
        async () => receiver.received.some((r) => r.status === null),
        20_000,
        'a hung attempt',
      );
      clock.offset += 6 * 60_000;
      await new Promise((resolve) => setTimeout(resolve, 700));
      // Recovered: the next retry (30 min) delivers everything.
      mood = 'ok';
      clock.offset += 31 * 60_000;
      const delivered = () =>
        new Set(
          receiver.received
            .filter((r) => r.status === 200)
            .map((r) => String(r.headers['webhook-id'])),
        );
      await eventually(
        async () =>
          delivered().size === tried().size &&
          (
            await listWebhookDeliveries(h.store, { accountId: null }, endpoint.uuid, {
              limit: 1000,
            })
          ).every((d) => d.state === 'delivered'),
        30_000,
        'every event delivered after the receiver recovered',
      );
      const events = await verified(endpoint, [endpoint.secret], { shifted: true });
      const ok = events.filter((e) => e.status === 200);
      assert.equal(new Set(ok.map((e) => e.id)).size, ok.length, 'an event delivered twice');
      const seqs = ok
        .filter((e) => e.event.type === 'recipients.final')
        .flatMap((e) => (e.event.data.recipients as FinalRecipient[]).map((r) => r.seq));
      assert.equal(new Set(seqs).size, 300);
      assert.equal(seqs.length, 300);
      assert.ok(ok.some((e) => e.event.type === 'message.completed'));
      const deliveries = await listWebhookDeliveries(h.store, { accountId: null }, endpoint.uuid, {
        limit: 1000,
      });
      assert.ok(
        deliveries.every((d) => d.attempts >= 3),
        'each tried at least three times',
      );
    });

    it('waits out a Retry-After, disables an endpoint on 410 and tells the owners', async () => {
      const customer = await h.customer();
      const owner = await h.store.createUser({
        email: `owner${customer.account.id}@example.com`,
        name: 'Owner',
        role: 'owner',
        accountId: customer.account.id,
        passwordHash: null,
        nowMs: Date.now(),
      } as Parameters<Store['createUser']>[0]);
      receiver = await startWebhookReceiver();
      receiver.answer = () => ({ status: 429, headers: { 'retry-after': '120' } });
      const endpoint = await endpointFor(customer, receiver.url);
      const clock = new ShiftedClock();
      deliver(h.store, { clock });
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, clock.now());
      await eventually(async () => receiver.received.length === 1, 10_000, 'the first attempt');
      const [first] = await eventually(async () => {
        const list = await listWebhookDeliveries(h.store, { accountId: null }, endpoint.uuid, {
          limit: 10,
        });
        return list[0]?.attempts === 1 ? list : undefined;
      });
      assert.equal(first!.state, 'pending');
      assert.equal(first!.statusCode, 429);
      assert.ok(
        first!.nextAttemptAt - first!.lastAttemptAt! >= 120_000,
        'Retry-After not honoured',
      );
      clock.offset += 60_000;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, 1, 'retried before Retry-After');

      receiver.answer = () => ({ status: 410 });
      clock.offset += 70_000;
      await eventually(async () => receiver.received.length === 2, 10_000, 'the retry');
      const disabled = await eventually(async () => {
        const found = await h.store.findWebhookEndpoint(endpoint.uuid);
        return found && !found.enabled ? found : undefined;
      });
      assert.match(disabled.disabledReason ?? '', /410/);
      await eventually(async () => mails.some((m) => m.to === owner.email));
      // Disabled: a new event waits, unposted.
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, clock.now());
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, 2);
    });

    it('cuts the requests still in flight at the end of its drain when stopped, and they are retried', async () => {
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      receiver.answer = () => 'hang';
      const endpoint = await endpointFor(customer, receiver.url);
      const clock = new ShiftedClock();
      const first = deliver(h.store, { clock, settings: { timeoutMs: 60_000 }, drainMs: 200 });
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, clock.now());
      await eventually(async () => receiver.received.length === 1, 10_000, 'the request');
      const stopping = Date.now();
      await first.stop();
      deliverers = deliverers.filter((d) => d !== first);
      const stopMs = Date.now() - stopping;
      assert.ok(stopMs < 10_000, `stopped after ${stopMs} ms: its drain, not the 60 s timeout`);
      const [cut] = await listWebhookDeliveries(h.store, { accountId: null }, endpoint.uuid, {
        limit: 10,
      });
      assert.deepEqual([cut!.state, cut!.attempts, cut!.statusCode], ['pending', 1, null]);
      assert.match(cut!.error ?? '', /cut short/);

      receiver.answer = () => ({ status: 204 });
      clock.offset += 10_000;
      deliver(h.store, { clock });
      await eventually(async () => receiver.received.length === 2, 10_000, 'the retry');
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      assert.equal(ids[1], ids[0], 'the same event, under the same id');
    });

    it('gives up after the retry window and disables an endpoint that failed through it', async () => {
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      receiver.answer = () => ({ status: 503 });
      const endpoint = await endpointFor(customer, receiver.url);
      const clock = new ShiftedClock();
      deliver(h.store, { clock });
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, clock.now());
      // Each step 11 hours on: every step makes the next retry due, until the 72-hour window.
      const recorded = (attempts: number) =>
        eventually(
          async () => {
            const [delivery] = await listWebhookDeliveries(
              h.store,
              { accountId: null },
              endpoint.uuid,
              {
                limit: 1,
              },
            );
            return delivery?.attempts === attempts ? delivery : undefined;
          },
          10_000,
          `attempt ${attempts} recorded`,
        );
      let delivery = await recorded(1);
      while (delivery.state === 'pending') {
        clock.offset += 11 * 3_600_000;
        delivery = await recorded(delivery.attempts + 1);
      }
      assert.equal(delivery.state, 'failed');
      // Attempts at 0, 11, 22, 33, 44, 55 and 66 hours; the next would fall past 72.
      assert.equal(delivery.attempts, 7);
      assert.equal(receiver.received.length, 7);
      const found = await eventually(async () => {
        const endpointNow = await h.store.findWebhookEndpoint(endpoint.uuid);
        return endpointNow && !endpointNow.enabled ? endpointNow : undefined;
      });
      assert.match(found.disabledReason ?? '', /failed since/);
    });

    it('refuses a private target unless allowed, and never follows a redirect', async () => {
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      const endpoint = await endpointFor(customer, receiver.url);
      deliver(h.store, { settings: { allowPrivateTargets: false } });
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, Date.now());
      const [refused] = await eventually(async () => {
        const list = await listWebhookDeliveries(h.store, { accountId: null }, endpoint.uuid, {
          limit: 1,
        });
        return list[0]?.attempts === 1 ? list : undefined;
      });
      assert.match(refused!.error ?? '', /refused: 127\.0\.0\.1/);
      assert.equal(receiver.received.length, 0);
      await Promise.all(deliverers.splice(0).map((d) => d.stop()));

      const target = await startWebhookReceiver('/elsewhere');
      closers.push(() => target.close());
      receiver.answer = () => ({ status: 302, headers: { location: target.url } });
      const redirecting = await endpointFor(customer, receiver.url);
      deliver(h.store);
      await sendTestWebhook(h.store, { accountId: null }, redirecting.uuid, Date.now());
      const [redirected] = await eventually(async () => {
        const list = await listWebhookDeliveries(h.store, { accountId: null }, redirecting.uuid, {
          limit: 1,
        });
        return list[0]?.attempts === 1 ? list : undefined;
      });
      assert.equal(redirected!.statusCode, 302);
      assert.match(redirected!.error ?? '', /not followed/);
      assert.equal(redirected!.state, 'pending');
      assert.equal(target.received.length, 0);
    });

    it('counts attempts by outcome and shows the backlog and its age in /metrics', async () => {
      // The gauges count every account's: the endpoints earlier tests left are disabled first.
      for (const other of await h.store.listWebhookEndpoints(null)) {
        await h.store.disableWebhookEndpoint(other.id, 'an earlier test', Date.now());
      }
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      receiver.answer = () => ({ status: 500 });
      const endpoint = await endpointFor(customer, receiver.url);
      const clock = new ShiftedClock();
      const metrics = new Metrics();
      metrics.observe({
        carriers: () => [],
        queueDepth: async () => 0,
        webhookBacklog: () => h.store.webhookBacklog(clock.now()),
        now: () => clock.now(),
      });
      const metric = async (name: string) => {
        const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(name));
        return line === undefined ? 0 : Number(line.split(' ').at(-1));
      };
      // Two events waiting, the oldest a minute old.
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, clock.now());
      clock.offset += 60_000;
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, clock.now());
      assert.equal(await metric('nok_webhook_backlog '), 2);
      assert.ok((await metric('nok_webhook_backlog_oldest_seconds ')) >= 60);
      deliver(h.store, { clock, metrics });
      await eventually(
        async () => (await metric('nok_webhook_attempts_total{outcome="retry"}')) === 2,
      );
      assert.equal(await metric('nok_webhook_backlog '), 0, 'both wait for their retry');
      receiver.answer = () => ({ status: 204 });
      clock.offset += 10_000;
      await eventually(
        async () => (await metric('nok_webhook_attempts_total{outcome="delivered"}')) === 2,
      );
      assert.equal(await metric('nok_webhook_backlog_oldest_seconds '), 0);
    });

    it('holds a few final recipients for the batch window, and sends a full batch at once', async () => {
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      await endpointFor(customer, receiver.url);
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Batched',
        msisdns: numbers(200, 850000000),
      });
      const messageId = (await h.store.findMessageByUuid(uuid))!.id;
      const clock = new FakeClock(Date.now());
      const finals = (from: number, count: number): StoredFinal[] =>
        Array.from({ length: count }, (_, i) => [
          messageId,
          from + i,
          `0${850000000 + from + i - 1}`,
          'success',
          clock.now(),
        ]);
      const recipientsOf = () =>
        receiver.received.map((r) => (JSON.parse(r.body) as Event).data.recipients as unknown[]);
      // On a clock that stands still unless moved; the deliverer's own waits are real.
      deliver(h.store, { clock, settings: { batchWaitMs: 1_000, batchMax: 100 } });
      await h.store.addWebhookOutbox(
        customer.account.id,
        { kind: 'recipients.final', payload: finals(1, 3) },
        clock.now(),
      );
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(receiver.received.length, 0, 'three recipients wait for others to join');
      clock.advance(1_000);
      await eventually(async () => receiver.received.length === 1);
      assert.deepEqual(
        recipientsOf().map((r) => r.length),
        [3],
      );

      // 150 recipients: a full batch and the rest at the next fan-out (every 50 ms), long before
      // the window ends.
      await h.store.addWebhookOutbox(
        customer.account.id,
        { kind: 'recipients.final', payload: finals(4, 150) },
        clock.now(),
      );
      clock.advance(60);
      await eventually(async () => receiver.received.length === 3);
      // Posted side by side: in either order.
      assert.deepEqual(
        recipientsOf()
          .map((r) => r.length)
          .sort((a, b) => a - b),
        [3, 50, 100],
      );
    });

    it('signs with both secrets while a rotated one overlaps', async () => {
      const customer = await h.customer();
      receiver = await startWebhookReceiver();
      const endpoint = await endpointFor(customer, receiver.url);
      const rotated = await rotateWebhookSecret(h.store, { accountId: null }, endpoint.uuid, {
        nowMs: Date.now(),
        overlapMs: 3_600_000,
      });
      assert.notEqual(rotated.secret, endpoint.secret);
      deliver(h.store);
      await sendTestWebhook(h.store, { accountId: null }, endpoint.uuid, Date.now());
      await eventually(async () => receiver.received.length === 1);
      const signatures = String(receiver.received[0]!.headers['webhook-signature']).split(' ');
      assert.equal(signatures.length, 2);
      await verified(rotated, [rotated.secret, endpoint.secret]);
    });
  });
}
