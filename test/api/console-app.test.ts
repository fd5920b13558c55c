import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { STYLE_NONCE_PLACEHOLDER } from '../../src/api/plugins/console-app.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { expectError } from '../support/security-suite.js';

/** A console build in miniature: index.html with the nonce placeholder, and one asset. */
function fixtureBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nok-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta name="nok-style-nonce" nonce="${STYLE_NONCE_PLACEHOLDER}">` +
      '<script type="module" src="/console/assets/app-Ab12Cd34.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'app-Ab12Cd34.js'), 'export const console = 1;\n');
  return dir;
}

function policy(response: LightMyRequestResponse): Map<string, string> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

function assertSecurityHeaders(response: LightMyRequestResponse): void {
  assert.equal(response.headers['x-content-type-options'], 'nosniff');
  assert.equal(response.headers['referrer-policy'], 'same-origin');
  assert.equal(response.headers['x-frame-options'], 'DENY');
  assert.equal(policy(response).get('frame-ancestors'), "'none'");
}

for (const engine of testEngines()) {
  describe(`the console served at /console (${engine.name})`, () => {
    let h: Harness;
    let dir: string;
    before(async () => {
      dir = fixtureBuild();
      h = await createHarness(engine, { consoleDir: dir });
    });
    after(async () => {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves index.html at /console, /console/ and any page path, never cached', async () => {
      for (const url of ['/console', '/console/', '/console/admin/carriers?tab=binds']) {
        const response = await h.request({ method: 'GET', url });
        assert.equal(response.statusCode, 200, url);
        assert.match(String(response.headers['content-type']), /^text\/html; charset=utf-8/);
        assert.equal(response.headers['cache-control'], 'no-cache');
        assert.match(response.body, /<div id="root">/);
      }
    });

    it('puts a fresh style nonce in each page, and the same one in its policy', async () => {
      const nonces = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const response = await h.request({ method: 'GET', url: '/console/dashboard' });
        const nonce = /nonce="([^"]+)"/.exec(response.body)?.[1];
        assert.ok(nonce && nonce !== STYLE_NONCE_PLACEHOLDER, response.body);
        assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
        assert.equal(policy(response).get('style-src-elem'), `'self' 'nonce-${nonce}'`);
        nonces.add(nonce);
      }
      assert.equal(nonces.size, 3);
    });

    it('allows script from its own files only, images also as data:, and no framing', async () => {
      const response = await h.request({ method: 'GET', url: '/console/' });
      const directives = policy(response);
      assert.equal(directives.get('script-src'), "'self'");
      assert.equal(directives.get('default-src'), "'self'");
      assert.equal(directives.get('img-src'), "'self' data:");
      assert.equal(directives.get('style-src-attr'), "'unsafe-inline'");
      assert.equal(directives.get('object-src'), "'none'");
      assert.equal(directives.get('base-uri'), "'none'");
      assertSecurityHeaders(response);
      assert.equal(response.headers['strict-transport-security'], undefined);
    });

    it('serves hashed assets as immutable for a year, with their type', async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await h.request({ method, url: '/console/assets/app-Ab12Cd34.js' });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.match(String(response.headers['content-type']), /javascript/);
        assertSecurityHeaders(response);
      }
    });

    it('answers a missing asset 404, not with the page', async () => {
      const response = await h.request({ method: 'GET', url: '/console/assets/app-Old00000.js' });
      expectError(response, 404, 'NOT_FOUND');
    });

    it('answers an unknown /console/api path as JSON 404 with the console headers', async () => {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const response = await h.request({ method, url: '/console/api/no-such-thing' });
        expectError(response, 404, 'NOT_FOUND');
        assertSecurityHeaders(response);
        assert.equal(policy(response).get('default-src'), "'none'");
      }
      expectError(await h.request({ method: 'GET', url: '/console/api' }), 404, 'NOT_FOUND');
    });

    it('sends the same headers with the API reference page, its files and every API answer', async () => {
      const page = await h.request({ method: 'GET', url: '/docs' });
      assert.equal(page.statusCode, 200, page.body);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assertSecurityHeaders(page);
      assert.equal(policy(page).get('script-src'), "'self'");
      assert.equal(policy(page).get('object-src'), "'none'");
      for (const url of [
        '/docs/static/swagger-ui.css',
        '/docs/json',
        '/openapi.json',
        '/health',
        '/api/v2/credit/balance',
        '/api/v2/no-such-thing',
      ]) {
        const response = await h.request({ method: 'GET', url });
        assertSecurityHeaders(response);
        assert.equal(policy(response).get('default-src'), "'none'", url);
      }
    });

    it('declares its page routes public and keeps them out of the API document', async () => {
      // The console API (/console/api/...) declares roles of its own: the console security suite.
      const routes = h.app
        .declaredRoutes()
        .filter(
          (route) => route.url.startsWith('/console') && !route.url.startsWith('/console/api/'),
        );
      assert.ok(routes.length >= 3, JSON.stringify(routes));
      for (const route of routes) assert.equal(route.access, 'public', route.url);
      const document = (await h.request({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, unknown>;
      };
      assert.deepEqual(
        Object.keys(document.paths).filter((path) => path.startsWith('/console')),
        [],
      );
    });

    it('sends no HSTS for X-Forwarded-Proto: https unless NOK_TRUST_PROXY is on', async () => {
      const response = await h.request({
        method: 'GET',
        url: '/console/',
        headers: { 'x-forwarded-proto': 'https' },
      });
      assert.equal(response.headers['strict-transport-security'], undefined);
    });
  });

  describe(`the console behind a trusted proxy (${engine.name})`, () => {
    let h: Harness;
    let dir: string;
    before(async () => {
      dir = fixtureBuild();
      h = await createHarness(engine, { consoleDir: dir, trustProxy: true });
    });
    after(async () => {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sends HSTS on every console response that came over TLS', async () => {
      for (const url of ['/console/', '/console/assets/app-Ab12Cd34.js', '/console/api/x']) {
        const tls = await h.request({
          method: 'GET',
          url,
          headers: { 'x-forwarded-proto': 'https' },
        });
        assert.equal(tls.headers['strict-transport-security'], 'max-age=31536000', url);
        const plain = await h.request({
          method: 'GET',
          url,
          headers: { 'x-forwarded-proto': 'http' },
        });
        assert.equal(plain.headers['strict-transport-security'], undefined, url);
      }
    });

    it('believes only the protocol its own proxy added, the last one', async () => {
      const response = await h.request({
        method: 'GET',
        url: '/console/',
        headers: { 'x-forwarded-proto': 'https, http' },
      });
      assert.equal(response.headers['strict-transport-security'], undefined);
    });
  });

  describe(`the console not built (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { consoleDir: join(tmpdir(), 'nok-no-console-here') });
    });
    after(() => h.close());

    it('answers its pages 503 with what to run, and its API paths still as JSON', async () => {
      const response = await h.request({ method: 'GET', url: '/console/dashboard' });
      assert.equal(response.statusCode, 503);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.body, /npm run build/);
      assert.equal(response.headers['cache-control'], 'no-store');
      assertSecurityHeaders(response);
      expectError(await h.request({ method: 'GET', url: '/console/api/x' }), 404, 'NOT_FOUND');
    });
  });
}
