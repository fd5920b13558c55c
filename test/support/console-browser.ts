import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { consoleBuildProblem, repositoryRoot } from '../../scripts/console-build.mjs';
import type { TestEngine } from './engines.js';
import { createHarness, type Harness } from './harness.js';
import {
  installSessionStandIn,
  STAND_IN_ROLE_COOKIE,
  type StandInRole,
} from './session-stand-in.js';

/** Debian's Chromium; nothing here downloads a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a quiet, offline, headless Chromium on a CI machine without a GPU or sandbox. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOT_DIR = join(repositoryRoot, 'test-artifacts', 'screenshots');

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/**
 * Chromium for one test file. Playwright gives each launch a fresh profile directory of its
 * own (its `--user-data-dir`), removed on close.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** A real Nok api, on a real store, serving the built console on 127.0.0.1. */
export interface ConsoleServer {
  readonly harness: Harness;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startConsoleServer(engine: TestEngine): Promise<ConsoleServer> {
  const problem = consoleBuildProblem();
  assert.equal(
    problem,
    null,
    `${problem}: run the browser tests through npm test, which builds it, or npm run build:console`,
  );
  const harness = await createHarness(engine);
  installSessionStandIn(harness.app);
  const origin = await harness.app.listen({ host: '127.0.0.1', port: 0 });
  return { harness, origin, close: () => harness.close() };
}

/** A page that records what went wrong in it: console errors (CSP refusals among them). */
export interface WatchedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: string[];
  close(): Promise<void>;
}

export async function openPage(
  browser: Browser,
  server: ConsoleServer,
  options: {
    viewport?: { width: number; height: number };
    role?: StandInRole;
    locale?: string;
  } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL: server.origin,
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-US',
    timezoneId: 'Asia/Bangkok',
  });
  // Well under the test's own time limit, so a wait that fails says which element it was.
  context.setDefaultTimeout(10_000);
  if (options.role) await signInAs(context, server, options.role);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return { page, context, errors, close: () => context.close() };
}

/** Signs the browser context in as a user of `role` (through the stand-in, for now). */
async function signInAs(context: BrowserContext, server: ConsoleServer, role: StandInRole) {
  await context.addCookies([
    { name: STAND_IN_ROLE_COOKIE, value: role, url: `${server.origin}/console` },
  ]);
}

/** Writes `test-artifacts/screenshots/<name>.png`, the whole page. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
