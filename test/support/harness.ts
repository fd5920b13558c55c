import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp, type AppDeps } from '../../src/api/app.js';
import { generateApiKey } from '../../src/domain/accounts/api-key.js';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import type { Account } from '../../src/domain/accounts/account-store.js';
import type { Store } from '../../src/domain/store.js';
import type { ApiKeyScope, SenderStatus } from '../../src/domain/statuses.js';
import { dispatchersViewOf } from '../../src/storage/status-board-store.js';
import { logMailer } from '../../src/mail/log-mailer.js';
import { createStore } from '../../src/storage/store.js';
import type { TestDatabase, TestEngine } from './engines.js';
import { FakeClock } from './fake-clock.js';
import { ServedContract } from './served-contract.js';

export interface Harness {
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly db: TestDatabase;
  readonly clock: FakeClock;
  account(options?: { credits?: number; pricePerPart?: number; name?: string }): Promise<Account>;
  key(accountId: number, scopes?: ApiKeyScope[]): Promise<{ key: string; id: number }>;
  sender(accountId: number, name: string, status?: SenderStatus): Promise<void>;
  /** An account with credits, an approved sender and a `*` key. */
  customer(options?: { credits?: number; sender?: string }): Promise<Customer>;
  /**
   * One request through the app. Every answer is held to the served /openapi.json: a documented
   * operation answers only its documented statuses with bodies its schemas accept, and any other
   * error is exactly `{ error, code }`.
   */
  request(options: InjectOptions & { key?: string }): Promise<LightMyRequestResponse>;
  /** POST /api/v2/sms/send as the customer; asserts 200 and returns the body. */
  send<T = { uuid: string }>(
    customer: { key: string },
    payload: Record<string, unknown>,
  ): Promise<T>;
  close(): Promise<void>;
}

export interface Customer {
  readonly account: Account;
  readonly key: string;
  readonly sender: string;
}

let senderCounter = 0;

export interface HarnessOptions {
  rateLimitRequests?: number;
  sendBodyLimitBytes?: number;
  /** The built console to serve at /console (default dist/console). */
  consoleDir?: string;
  trustProxy?: boolean;
  senderDocumentMaxBytes?: number;
  /** Mail: e.g. smtpMailer(inbox.smtpUrl, …); default the log mailer (silent here). */
  mailer?: AppDeps['mailer'];
  publicUrl?: string;
  /** The origin console state changes must come from (default the request's own). */
  consoleOrigin?: string;
  passwordResetLimits?: AppDeps['passwordResetLimits'];
  /** Failed API-key authentications per address and minute (default 100,000). */
  failedAuthenticationLimit?: number;
  /** Default a silent logger. */
  logger?: AppDeps['logger'];
  sessionLimits?: AppDeps['sessionLimits'];
  signInLimits?: AppDeps['signInLimits'];
}

export async function createHarness(
  engine: TestEngine,
  options: HarnessOptions = {},
): Promise<Harness> {
  const db = await engine.create();
  const store = createStore(db.database.db);
  const clock = new FakeClock();
  const logger = options.logger ?? pino({ level: 'silent' });
  const app = await buildApp({
    store,
    clock,
    logger,
    rateLimit: {
      requests: options.rateLimitRequests ?? 100_000,
      windowSeconds: 60,
      failedAuthentications: options.failedAuthenticationLimit ?? 100_000,
    },
    sendBodyLimitBytes: options.sendBodyLimitBytes ?? 128 * 1024 * 1024,
    consoleDir: options.consoleDir,
    trustProxy: options.trustProxy,
    senderDocumentMaxBytes: options.senderDocumentMaxBytes,
    mailer: options.mailer ?? logMailer(logger),
    publicUrl: options.publicUrl,
    consoleOrigin: options.consoleOrigin,
    passwordResetLimits: options.passwordResetLimits,
    sessionLimits: options.sessionLimits,
    signInLimits: options.signInLimits,
    dispatchers: dispatchersViewOf(db.database),
  });

  let contract: Promise<ServedContract> | undefined;
  const harness: Harness = {
    app,
    store,
    db,
    clock,
    async account({ credits = 0, pricePerPart, name = 'Test account' } = {}) {
      const account = await createAccount(store, {
        name,
        credits,
        pricePerPart,
        nowMs: clock.now(),
        actor: SYSTEM_ACTOR,
      });
      return (await store.findAccount(account.id))!;
    },
    async key(accountId, scopes = ['*']) {
      const generated = generateApiKey();
      const record = await store.createApiKey({
        accountId,
        name: 'test',
        prefix: generated.prefix,
        secretHash: generated.secretHash,
        scopes,
        nowMs: clock.now(),
      });
      return { key: generated.key, id: record.id };
    },
    async sender(accountId, name, status = 'approved') {
      await store.createSender({ accountId, name, status, nowMs: clock.now() });
    },
    async customer({ credits = 1_000_000, sender } = {}) {
      const account = await harness.account({ credits });
      const name = sender ?? `S${++senderCounter}x${account.id}`.slice(0, 11);
      await harness.sender(account.id, name);
      const { key } = await harness.key(account.id);
      return { account, key, sender: name };
    },
    async request({ key, headers, ...rest }) {
      const response = await app.inject({
        ...rest,
        headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
      });
      if (typeof rest.url === 'string') {
        contract ??= ServedContract.load(app);
        (await contract).check(rest.method ?? 'GET', rest.url, response);
      }
      return response;
    },
    async send(customer, payload) {
      const response = await harness.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: customer.key,
        payload,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as never;
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
  return harness;
}
