import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig, unknownSettings } from './config.js';
import { SETTINGS } from './settings.js';

describe('settings', () => {
  it('paces the dispatcher as before when no NOK_DISPATCH_* is set', () => {
    assert.deepEqual(loadConfig({}).dispatch, {
      chunkSize: 1000,
      maxInFlight: 0,
      retryWindowMs: 3_600_000,
      leaseMs: 60_000,
      idlePollMs: 250,
      retryInitialDelayMs: 1_000,
      retryMaxDelayMs: 60_000,
      sweepIntervalMs: 1_000,
      drainMs: 10_000,
      commit: { maxBatch: 1000, delayMs: 1, retryDelayMs: 500, receiptConcurrency: 2 },
    });
  });

  it('takes each NOK_DISPATCH_* setting', () => {
    const { dispatch } = loadConfig({
      NOK_DISPATCH_LEASE_MS: '30000',
      NOK_DISPATCH_IDLE_POLL_MS: '100',
      NOK_DISPATCH_RETRY_INITIAL_DELAY_MS: '2000',
      NOK_DISPATCH_RETRY_MAX_DELAY_MS: '120000',
      NOK_DISPATCH_SWEEP_INTERVAL_MS: '5000',
      NOK_DISPATCH_DRAIN_MS: '0',
      NOK_DISPATCH_COMMIT_BATCH: '500',
      NOK_DISPATCH_COMMIT_DELAY_MS: '5',
      NOK_DISPATCH_COMMIT_RETRY_MS: '1000',
      NOK_DISPATCH_RECEIPT_COMMITS: '4',
    });
    assert.deepEqual(
      [dispatch.leaseMs, dispatch.idlePollMs, dispatch.retryInitialDelayMs],
      [30_000, 100, 2_000],
    );
    assert.deepEqual(
      [dispatch.retryMaxDelayMs, dispatch.sweepIntervalMs, dispatch.drainMs],
      [120_000, 5_000, 0],
    );
    assert.deepEqual(dispatch.commit, {
      maxBatch: 500,
      delayMs: 5,
      retryDelayMs: 1000,
      receiptConcurrency: 4,
    });
  });

  it('refuses a NOK_DISPATCH_* setting out of bounds, naming it', () => {
    for (const [name, value] of [
      ['NOK_DISPATCH_LEASE_MS', '2999'],
      ['NOK_DISPATCH_IDLE_POLL_MS', '0'],
      ['NOK_DISPATCH_SWEEP_INTERVAL_MS', 'soon'],
      ['NOK_DISPATCH_COMMIT_BATCH', '0'],
      ['NOK_DISPATCH_RECEIPT_COMMITS', '17'],
      ['NOK_DISPATCH_DRAIN_MS', '-1'],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(`${name}: `), name);
    }
    assert.throws(
      () =>
        loadConfig({
          NOK_DISPATCH_RETRY_INITIAL_DELAY_MS: '5000',
          NOK_DISPATCH_RETRY_MAX_DELAY_MS: '1000',
        }),
      /NOK_DISPATCH_RETRY_MAX_DELAY_MS: must be at least NOK_DISPATCH_RETRY_INITIAL_DELAY_MS/,
    );
  });

  it('puts the operator endpoints on 127.0.0.1:9464 unless NOK_OPS_HOST/NOK_OPS_PORT say otherwise', () => {
    assert.deepEqual(loadConfig({}).ops, { host: '127.0.0.1', port: 9464 });
    assert.deepEqual(loadConfig({ NOK_OPS_HOST: '0.0.0.0', NOK_OPS_PORT: '0' }).ops, {
      host: '0.0.0.0',
      port: 0,
    });
    assert.throws(() => loadConfig({ NOK_OPS_PORT: '65536' }), /NOK_OPS_PORT: /);
  });

  it('reads NOK_LOG_FORMAT as auto, pretty or json', () => {
    assert.equal(loadConfig({}).logFormat, 'auto');
    assert.equal(loadConfig({ NOK_LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
    assert.throws(() => loadConfig({ NOK_LOG_FORMAT: 'xml' }), /NOK_LOG_FORMAT: /);
  });
});

describe('NOK_SMSC_OPTIONS', () => {
  it('is parsed at load: the demo preset by default, or the simulator settings given', () => {
    assert.deepEqual(loadConfig({}).smsc.settings, { preset: 'demo' });
    assert.deepEqual(
      loadConfig({ NOK_SMSC_OPTIONS: '{"preset":"slow","failedRatio":0.1}' }).smsc.settings,
      { preset: 'slow', failedRatio: 0.1 },
    );
  });

  it('refuses what is not JSON, naming the variable', () => {
    assert.throws(
      () => loadConfig({ NOK_SMSC_OPTIONS: '{preset:demo}' }),
      /NOK_SMSC_OPTIONS: .*JSON/,
    );
  });

  it("refuses what the simulator's schema refuses, naming the variable and the field", () => {
    assert.throws(
      () => loadConfig({ NOK_SMSC_OPTIONS: '{"preset":"fast"}' }),
      /NOK_SMSC_OPTIONS: SMSC options: preset must be one of/,
    );
    assert.throws(
      () => loadConfig({ NOK_SMSC_OPTIONS: '{"failedRatio":2}' }),
      /NOK_SMSC_OPTIONS: SMSC options: failedRatio/,
    );
  });

  it('refuses the test hooks, which only code can pass', () => {
    for (const hook of [
      '{"firstMessageId":1}',
      '{"recordSubmits":true}',
      '{"receiptBeforeResponse":true}',
    ]) {
      assert.throws(() => loadConfig({ NOK_SMSC_OPTIONS: hook }), /NOK_SMSC_OPTIONS: .*test hook/);
    }
  });

  it('refuses host and port, which NOK_SMSC_HOST and NOK_SMSC_PORT set', () => {
    assert.throws(
      () => loadConfig({ NOK_SMSC_OPTIONS: '{"port":2776}' }),
      /NOK_SMSC_OPTIONS: port is set by NOK_SMSC_PORT/,
    );
  });
});

describe('NOK_TRUST_PROXY', () => {
  it('is off unless set, so X-Forwarded-* headers are not believed by default', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ NOK_TRUST_PROXY: 'off' }).trustProxy, false);
  });

  it('is on with `on`', () => {
    assert.equal(loadConfig({ NOK_TRUST_PROXY: 'on' }).trustProxy, true);
  });

  it('refuses any other value, naming the variable', () => {
    assert.throws(() => loadConfig({ NOK_TRUST_PROXY: 'yes' }), /NOK_TRUST_PROXY/);
  });
});

describe('mail settings', () => {
  it('write mail to the log, from Nok <nok@localhost>, with links on NOK_HOST:NOK_PORT by default', () => {
    const config = loadConfig({});
    assert.deepEqual(config.mail, { smtpUrl: undefined, from: 'Nok <nok@localhost>' });
    assert.equal(config.publicUrl, 'http://127.0.0.1:8080');
    assert.equal(config.consoleOrigin, undefined, 'state changes checked against their own Host');
    assert.equal(
      loadConfig({ NOK_HOST: '0.0.0.0', NOK_PORT: '80' }).publicUrl,
      'http://localhost:80',
    );
    assert.deepEqual(config.linkLifetimes, {
      invitationMs: 7 * 86_400_000,
      passwordResetMs: 3_600_000,
    });
  });

  it('take SMTP, the sender, the public URL and the link lifetimes', () => {
    const config = loadConfig({
      NOK_SMTP_URL: 'smtps://nok:pw@mail.example.com:465',
      NOK_MAIL_FROM: 'Example SMS <sms@example.com>',
      NOK_PUBLIC_URL: 'https://sms.example.com/',
      NOK_INVITATION_TTL_HOURS: '48',
      NOK_PASSWORD_RESET_TTL_MINUTES: '15',
    });
    assert.equal(config.mail.smtpUrl, 'smtps://nok:pw@mail.example.com:465');
    assert.equal(config.mail.from, 'Example SMS <sms@example.com>');
    assert.equal(config.publicUrl, 'https://sms.example.com');
    assert.equal(
      loadConfig({ NOK_PUBLIC_URL: 'https://sms.example.com:8443/nok/' }).consoleOrigin,
      'https://sms.example.com:8443',
    );
    assert.deepEqual(config.linkLifetimes, {
      invitationMs: 48 * 3_600_000,
      passwordResetMs: 900_000,
    });
  });

  it('refuse malformed values, naming the variable and never echoing an SMTP password', () => {
    for (const [name, value] of [
      ['NOK_SMTP_URL', 'http://user:hunter2@mail.example.com'],
      ['NOK_SMTP_URL', 'not a url hunter2'],
      ['NOK_MAIL_FROM', 'nobody'],
      ['NOK_PUBLIC_URL', 'ftp://sms.example.com'],
      ['NOK_PUBLIC_URL', 'https://sms.example.com/?next=1'],
      ['NOK_INVITATION_TTL_HOURS', '0'],
      ['NOK_PASSWORD_RESET_TTL_MINUTES', '1'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: Error) => error.message.includes(name) && !error.message.includes('hunter2'),
        `${name}=${value}`,
      );
    }
  });
});

describe('NOK_SESSION_IDLE_MINUTES and NOK_SESSION_MAX_HOURS', () => {
  it('end console sessions after 30 idle minutes and 12 hours unless set', () => {
    assert.deepEqual(loadConfig({}).sessionLimits, {
      idleMs: 30 * 60_000,
      absoluteMs: 12 * 3_600_000,
    });
  });

  it('take minutes and hours', () => {
    assert.deepEqual(
      loadConfig({ NOK_SESSION_IDLE_MINUTES: '5', NOK_SESSION_MAX_HOURS: '1' }).sessionLimits,
      { idleMs: 5 * 60_000, absoluteMs: 3_600_000 },
    );
  });

  it('refuse what is not a whole number in bounds, naming the variable', () => {
    for (const [name, value] of [
      ['NOK_SESSION_IDLE_MINUTES', '0'],
      ['NOK_SESSION_IDLE_MINUTES', 'half an hour'],
      ['NOK_SESSION_IDLE_MINUTES', '1441'],
      ['NOK_SESSION_MAX_HOURS', '0'],
      ['NOK_SESSION_MAX_HOURS', '1.5'],
      ['NOK_SESSION_MAX_HOURS', '721'],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(name), `${name}=${value}`);
    }
  });

  it('refuse an idle limit longer than the absolute one', () => {
    assert.throws(
      () => loadConfig({ NOK_SESSION_IDLE_MINUTES: '120', NOK_SESSION_MAX_HOURS: '1' }),
      /NOK_SESSION_IDLE_MINUTES: must be at most NOK_SESSION_MAX_HOURS/,
    );
  });
});

describe('unknown NOK_ variables', () => {
  it('refuses a misspelt setting, naming it and the known setting closest to it', () => {
    assert.throws(
      () => loadConfig({ NOK_PROT: '9000' }),
      /NOK_PROT: not a Nok setting; did you mean NOK_PORT\?/,
    );
    assert.throws(
      () => loadConfig({ NOK_DISPATCH_LEASE: '30000', NOK_SENDER_DOCUMENT_MAX_BYTE: '2048' }),
      (error: Error) =>
        /NOK_DISPATCH_LEASE: .*did you mean NOK_DISPATCH_LEASE_MS\?/.test(error.message) &&
        /NOK_SENDER_DOCUMENT_MAX_BYTE: .*did you mean NOK_SENDER_DOCUMENT_MAX_BYTES\?/.test(
          error.message,
        ),
    );
  });

  it('names every unknown one at once, beside the bad values', () => {
    assert.throws(
      () => loadConfig({ NOK_LOGLEVEL: 'debug', NOK_PORT: 'eighty' }),
      (error: Error) =>
        error.message.includes('NOK_LOGLEVEL: not a Nok setting; did you mean NOK_LOG_LEVEL?') &&
        error.message.includes('NOK_PORT: '),
    );
  });

  it("takes the test, bench and dev tooling's variables and other programs' variables as known", () => {
    const env = {
      NOK_TEST_PG_URL: 'postgres://postgres@127.0.0.1:5432/test',
      NOK_BENCH_NUMBERS: '1000',
      NOK_BENCH_PG_URL: 'postgres://postgres@127.0.0.1:5432/test',
      NOK_DEV_PROXY_TARGET: 'http://127.0.0.1:8080',
      PATH: '/usr/bin',
      NOKIA: 'yes',
    };
    assert.deepEqual(unknownSettings(env), []);
    assert.equal(loadConfig(env).port, 8080);
  });

  it('knows every setting it reads', () => {
    const everySetting = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '']));
    assert.deepEqual(unknownSettings(everySetting), []);
    assert.deepEqual(unknownSettings({ NOK_TEST_PG_ULR: 'x' }), [
      { name: 'NOK_TEST_PG_ULR', closest: 'NOK_TEST_PG_URL' },
    ]);
  });
});
