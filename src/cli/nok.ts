#!/usr/bin/env node
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../logging/create-logger.js';
import { startRuntime, type Roles } from '../main.js';
import { describeFailure } from '../runtime/describe-failure.js';
import { ExplainedError } from '../domain/explained-error.js';
import { describeError } from '../runtime/start-steps.js';
import { startSmsc } from '../smsc/start-smsc.js';
import { runAdmin } from './admin.js';
import { runBackup } from './backup.js';
import { ensureDemoAccount } from './demo.js';
import { openMigratedDatabase } from '../runtime/open-migrated-database.js';

const USAGE = `Usage: nok <command>

  start        every role in one process (API, scheduler, dispatcher; the built-in SMSC as
               the carrier unless NOK_CARRIERS_FILE is set); a demo account on an empty store
  api          the HTTP API only
  scheduler    releases scheduled messages and materialises recipient rows; purges expired
               console sessions, sign-in counters and one-time links
  dispatcher   delivers to the carriers of NOK_CARRIERS_FILE
  smsc         the built-in SMSC simulator alone, on NOK_SMSC_HOST:NOK_SMSC_PORT
  status       prints the /status of the Nok whose operator endpoints are on
               NOK_OPS_HOST:NOK_OPS_PORT

Every role but smsc serves /health, /metrics and /status on NOK_OPS_HOST:NOK_OPS_PORT.
  migrate      applies database migrations and exits
  backup FILE  copies the SQLite database to FILE, a new file, consistent as of one moment,
               while Nok goes on running on it (PostgreSQL: use pg_dump)
  admin ...    operator commands; \`nok admin help\` lists them

Settings are NOK_* environment variables; docs/configuration.md lists them.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'start':
    case 'api':
    case 'scheduler':
    case 'dispatcher': {
      const roles = rolesOf(command, config.carriersFile !== undefined);
      // Listen for the stop signals before announcing readiness: until a listener exists a
      // SIGTERM kills the process outright, skipping runtime.stop().
      const stopRequested = stopSignal();
      const logger = createLogger(config);
      const runtime = await startRuntime(config, roles, { logger });
      if (command === 'start') {
        // A demo that cannot be made ends the start: stop what runs, so the process exits now.
        await ensureDemoAccount(runtime.store, config, runtime.url, console.log).catch(
          async (error: unknown) => {
            await runtime.stop();
            throw error;
          },
        );
      }
      logger.info({ url: runtime.url, opsUrl: runtime.opsUrl, roles }, 'nok started');
      await stopRequested;
      logger.info('stopping');
      await runtime.stop();
      return 0;
    }
    case 'smsc': {
      const stopRequested = stopSignal();
      const logger = createLogger(config);
      const smsc = await startSmsc({
        ...config.smsc.settings,
        host: config.smsc.host,
        port: config.smsc.port,
        logger,
      });
      logger.info({ host: smsc.host, port: smsc.port }, 'SMSC simulator listening');
      await stopRequested;
      await smsc.close();
      return 0;
    }
    case 'status':
      return printStatus(config);
    case 'migrate': {
      const { database, applied } = await openMigratedDatabase(config.databaseUrl, {
        nowMs: Date.now(),
      });
      try {
        console.log(
          applied.length > 0 ? `Applied migrations ${applied.join(', ')}` : 'Already up to date',
        );
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'backup':
      return runBackup(config, rest);
    case 'admin':
      return runAdmin(config, rest);
    default:
      console.error(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

/** `nok status`: the /status of the operator listener on NOK_OPS_HOST:NOK_OPS_PORT. */
async function printStatus(config: Config): Promise<number> {
  const url = `http://${reachableHost(config.ops.host)}:${config.ops.port}/status`;
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new ExplainedError(
      `Nothing answers at ${url} (${describeError((error as Error).cause ?? error)}); is a Nok running with these NOK_OPS_HOST and NOK_OPS_PORT?`,
      { cause: error },
    );
  }
  console.log(JSON.stringify(await response.json(), null, 2));
  return response.ok ? 0 : 1;
}

/** Where to reach a listener bound to `host`: a wildcard address means this machine. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function rolesOf(command: string, hasCarrierFile: boolean): Roles {
  switch (command) {
    case 'api':
      return { api: true, scheduler: false };
    case 'scheduler':
      return { api: false, scheduler: true, webhooks: true };
    case 'dispatcher':
      return { api: false, scheduler: false, dispatcher: true, webhooks: true };
    default:
      return {
        api: true,
        scheduler: true,
        dispatcher: true,
        smsc: !hasCarrierFile,
        webhooks: true,
      };
  }
}

function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

// Ten frames (V8's default) end inside the database driver and the query builder; an operator
// reading a crash needs the frames of Nok's own code above them.
Error.stackTraceLimit = Math.max(Error.stackTraceLimit, 40);
const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // What failed and why on stderr: one line for a failure Nok explains, the causes and
    // stack of an unexpected one (a failed start has already stopped what it started, so the
    // process ends by itself; the timer is a backstop).
    console.error(`nok ${argv[0] ?? ''}: ${describeFailure(error)}`.replace(/^nok : /, 'nok: '));
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 10_000).unref();
  },
);
