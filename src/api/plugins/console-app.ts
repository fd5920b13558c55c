import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withAccess } from '../access.js';
import { consolePagePolicy } from './security-headers.js';

/** The placeholder `web/index.html` carries for the per-response style nonce. */
export const STYLE_NONCE_PLACEHOLDER = '__NOK_STYLE_NONCE__';

/** Hashed file names never change content: a browser keeps them a year without asking. */
const IMMUTABLE_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Where `npm run build` writes the console (`dist/console/` of the package), found from this
 * file whether it runs from src/ (tsx) or from dist/src/ (built).
 */
export function defaultConsoleDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('No package.json above the console plugin');
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}

/**
 * Serves the built console at /console: its hashed assets under /console/assets/ (immutable),
 * and index.html, with a fresh style nonce and `no-cache`, for /console and every other path
 * under it, where the console's router takes over. /console/api belongs to the console API:
 * a path there that no API route took is a JSON 404, never the page. Without a build, the
 * page routes answer 503 with what to run.
 */
export async function consoleApp(
  app: FastifyInstance,
  { dir, logger }: { dir: string; logger: FastifyInstance['log'] },
): Promise<void> {
  const indexPath = join(dir, 'index.html');
  const template = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
  if (template === null) {
    logger.warn({ dir }, 'the console is not built: /console answers 503 until npm run build');
  } else {
    // Registered inside the wrapper: `prefix` given to app.register would prefix twice.
    const assets = async (scope: FastifyInstance) => {
      await scope.register(fastifyStatic, {
        root: join(dir, 'assets'),
        prefix: '/console/assets/',
        // One route per file present now: a build is served whole, by the process that
        // started with it.
        wildcard: false,
        index: false,
        decorateReply: false,
        cacheControl: true,
        maxAge: IMMUTABLE_MS,
        immutable: true,
      });
    };
    await app.register(withAccess('public', assets));
  }

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/console/api' || path.startsWith('/console/api/')) return reply.callNotFound();
    // A missing asset (an old build's chunk) is missing, not the page.
    if (path.startsWith('/console/assets/')) return reply.callNotFound();
    if (template === null) return notBuilt(reply);
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', consolePagePolicy(nonce))
      .send(template.replaceAll(STYLE_NONCE_PLACEHOLDER, nonce));
  };
  const options = { schema: { hide: true }, config: { access: 'public' as const } };
  app.get('/console', options, page);
  app.get('/console/*', options, page);
}

function notBuilt(reply: FastifyReply) {
  return reply
    .status(503)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nok console not built</title></head>' +
        '<body><h1>The console is not built</h1><p>Run <code>npm run build</code> (or ' +
        '<code>npm run build:console</code>) and start Nok again.</p></body></html>\n',
    );
}
