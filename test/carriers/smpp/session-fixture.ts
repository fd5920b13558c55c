// Opens a session to a TestSmsc with short timeouts, and closes both after the test.
import type { TestContext } from 'node:test';
import { connectSession } from '../../../src/carriers/smpp/connect-session.js';
import type { ShortMessageInput } from '../../../src/carriers/smpp/short-message-fields.js';
import type { SessionOptions } from '../../../src/carriers/smpp/session-options.js';
import type { SmppSession } from '../../../src/carriers/smpp/smpp-session.js';
import { type SmscBehaviour, TestSmsc } from '../../support/test-smsc.js';

export async function startSmsc(t: TestContext, behaviour: Partial<SmscBehaviour> = {}) {
  const smsc = await TestSmsc.start(behaviour);
  t.after(() => smsc.close());
  return smsc;
}

export function sessionOptions(
  smsc: TestSmsc,
  options: Partial<SessionOptions> = {},
): SessionOptions {
  return {
    host: '127.0.0.1',
    port: smsc.port,
    mode: 'transceiver',
    systemId: 'nok',
    password: 'secret',
    // Wide, so that a loaded machine does not time out a test about something else; a test
    // of timeouts sets its own.
    responseTimeoutMs: 10_000,
    enquireLinkIntervalMs: 60_000,
    ...options,
  };
}

export async function openSession(
  t: TestContext,
  smsc: TestSmsc,
  options: Partial<SessionOptions> = {},
): Promise<SmppSession> {
  const session = await connectSession(sessionOptions(smsc, options));
  t.after(async () => {
    session.destroy();
    await session.closed;
  });
  return session;
}

export function message(n: number): ShortMessageInput {
  return {
    sourceAddr: 'NOK',
    destinationAddr: `66812${String(n).padStart(6, '0')}`,
    dataCoding: 0,
    registeredDelivery: 1,
    shortMessage: Buffer.from(`message ${n}`),
  };
}
