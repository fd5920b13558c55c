#!/usr/bin/env node
import { loadConfig } from '../config.js';
import { createLogger, startRuntime, type Roles } from '../main.js';
import { migrate } from '../storage/migrate.js';
import { openDatabase } from '../storage/open-database.js';
import { runAdmin } from './admin.js';
import { ensureDemoAccount } from './demo.js';

const USAGE = `Usage: nok <command>

  start        every role in one process (API, scheduler); a demo account on an empty store
  api          the HTTP API only
  scheduler    releases scheduled messages and materialises recipient rows
  migrate      applies database migrations and exits
  admin ...    operator commands; \`nok admin help\` lists them

Settings are NOK_* environment variables; see the README.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'start':
    case 'api':
    case 'scheduler': {
      const roles: Roles = { api: command !== 'scheduler', scheduler: command !== 'api' };
      // Listen for the stop signals before announcing readiness: until a listener exists a
      // SIGTERM kills the process outright, skipping runtime.stop().
      const stopRequested = new Promise<void>((resolve) => {
        const shutdown = () => resolve();
        process.once('SIGINT', shutdown);
        process.once('SIGTERM', shutdown);
      });
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
