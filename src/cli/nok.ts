#!/usr/bin/env node
import { loadConfig } from '../config.js';
import { createLogger, startRuntime, type Roles } from '../main.js';
import { migrate } from '../storage/migrate.js';
import { openDatabase } from '../storage/open-database.js';
import { runAdmin } from './admin.js';
import { ensureDemoAccount } from './demo.js';
import { startSmsc } from '../smsc/start-smsc.js';

const USAGE = `Usage: nok <command>

  start        every role in one process (API, scheduler, dispatcher; the built-in SMSC as
               the carrier unless NOK_CARRIERS_FILE is set); a demo account on an empty store
  api          the HTTP API only
  scheduler    releases scheduled messages and materialises recipient rows
  dispatcher   delivers to the carriers of NOK_CARRIERS_FILE (/health, /metrics, /status on NOK_PORT)
  smsc         the built-in SMSC simulator alone, on NOK_SMSC_HOST:NOK_SMSC_PORT
  status       prints the /status of the Nok listening on NOK_HOST:NOK_PORT
  migrate      applies database migrations and exits
  admin ...    operator commands; \`nok admin help\` lists them

Settings are NOK_* environment variables; see the README.`;

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
      if (command === 'start')
        await ensureDemoAccount(runtime.store, config, runtime.url, console.log);
      logger.info({ url: runtime.url, roles }, 'nok started');
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
    case 'status': {
      const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
      const response = await fetch(`http://${host}:${config.port}/status`);
      console.log(JSON.stringify(await response.json(), null, 2));
      return response.ok ? 0 : 1;
    }
    case 'migrate': {
      const database = openDatabase(config.databaseUrl);
      try {
        const applied = await migrate(database);
        console.log(
          applied.length > 0 ? `Applied migrations ${applied.join(', ')}` : 'Already up to date',
        );
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'admin':
      return runAdmin(config, rest);
    default:
      console.error(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

function rolesOf(command: string, hasCarrierFile: boolean): Roles {
  switch (command) {
    case 'api':
      return { api: true, scheduler: false };
    case 'scheduler':
      return { api: false, scheduler: true };
    case 'dispatcher':
      return { api: false, scheduler: false, dispatcher: true };
    default:
      return { api: true, scheduler: true, dispatcher: true, smsc: !hasCarrierFile };
  }
}

function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
