import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, logFormatFor } from './create-logger.js';
import { formatLogLine } from './format-log-line.js';

/** An output that records what is written, as a terminal or as a pipe. */
function output(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, write: (text: string) => written.push(text), written };
}

describe('log format', () => {
  it('is readable lines on a terminal and JSON lines elsewhere when auto', () => {
    assert.equal(logFormatFor('auto', true), 'pretty');
    assert.equal(logFormatFor('auto', false), 'json');
  });

  it('is what NOK_LOG_FORMAT says when it says pretty or json, terminal or not', () => {
    for (const isTTY of [true, false]) {
      assert.equal(logFormatFor('pretty', isTTY), 'pretty');
      assert.equal(logFormatFor('json', isTTY), 'json');
    }
  });

  it('writes JSON lines to a pipe and readable lines to a terminal', () => {
    const pipe = output(false);
    createLogger({ logLevel: 'info', logFormat: 'auto' }, pipe).info({ port: 8080 }, 'started');
    const record = JSON.parse(pipe.written.join('')) as Record<string, unknown>;
    assert.equal(record.msg, 'started');
    assert.equal(record.port, 8080);

    const terminal = output(true);
    createLogger({ logLevel: 'info', logFormat: 'auto' }, terminal).info({ port: 8080 }, 'started');
    assert.match(terminal.written.join(''), /^\d\d:\d\d:\d\d\.\d{3} INFO {2}started port=8080\n$/);
  });

  it('writes JSON to a terminal when the setting says json', () => {
    const terminal = output(true);
    createLogger({ logLevel: 'info', logFormat: 'json' }, terminal).warn('careful');
    assert.equal((JSON.parse(terminal.written.join('')) as { level: number }).level, 40);
  });
});

describe('a readable log line', () => {
  const time = new Date(2026, 10, 23, 9, 5, 7, 42).getTime();

  it('shows time, level and message, then the fields, without pid and hostname', () => {
    const line = formatLogLine(
      JSON.stringify({
        level: 30,
        time,
        pid: 1,
        hostname: 'h',
        role: 'dispatcher',
        carrier: 'sim',
        bind: 'transceiver 1',
        retryInMs: 50,
        roles: { api: true },
        msg: 'bind down',
      }),
    );
    assert.equal(
      line,
      '09:05:07.042 INFO  bind down role=dispatcher carrier=sim bind="transceiver 1" retryInMs=50 roles={"api":true}\n',
    );
  });

  it("shows an error's message inline and its stack indented below", () => {
    const err = {
      type: 'Error',
      message: 'database gone',
      stack: 'Error: database gone\n    at x',
    };
    const line = formatLogLine(JSON.stringify({ level: 50, time, err, msg: 'sweep failed' }));
    assert.equal(
      line,
      '09:05:07.042 ERROR sweep failed err="database gone"\n    Error: database gone\n        at x\n',
    );
  });

  it('passes a line that is not JSON through as it is', () => {
    assert.equal(formatLogLine('plain text'), 'plain text\n');
  });
});
