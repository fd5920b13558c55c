import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { consoleBuildProblem, repositoryRoot } from '../../scripts/console-build.mjs';
import type { TestEngine } from './engines.js';
import { freePort } from './free-port.js';
import { createHarness, type Harness, type HarnessOptions } from './harness.js';
import { createConsoleUser, currentTotpCode, TEST_PASSWORD } from './console-session.js';

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

/** The people every console server starts with, all with `CONSOLE_PASSWORD`. */
export const CONSOLE_PEOPLE = {
  member: { email: 'mali@example.co.th', name: 'มะลิ ใจดี' },
  owner: { email: 'somchai@example.co.th', name: 'Somchai Owner' },
  admin: { email: 'ops@nok.example', name: 'Platform Admin' },
} as const;
export type ConsoleRoleName = keyof typeof CONSOLE_PEOPLE;
export const CONSOLE_PASSWORD = TEST_PASSWORD;

/**
 * How long a browser wait may take before it fails, saying which element or page it was.
 * Test files run side by side, several Chromiums on two cores: a page that draws in 300 ms on a
 * quiet machine was seen to take over 10 s there. Well under the test's own time limit (none).
 */
export const BROWSER_WAIT_MS = 30_000;

/** A real Nok api, on a real store, serving the built console on 127.0.0.1. */
export interface ConsoleServer {
  readonly harness: Harness;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startConsoleServer(
  engine: TestEngine,
  options: {
    /** Mail, e.g. to a test SMTP inbox; links in it point at this server's origin. */
    mailer?: HarnessOptions['mailer'];
  } = {},
): Promise<ConsoleServer> {
  const problem = consoleBuildProblem();
  assert.equal(
    problem,
    null,
    `${problem}: run the browser tests through npm test, which builds it, or npm run build:console`,
  );
  // The port is chosen first so that links in mail (NOK_PUBLIC_URL) name this very server.
  const port = await freePort();
  const harness = await createHarness(engine, {
    mailer: options.mailer,
    publicUrl: `http://127.0.0.1:${port}`,
  });
  const owner = await createConsoleUser(harness, 'owner', CONSOLE_PEOPLE.owner);
  await createConsoleUser(harness, 'member', { ...CONSOLE_PEOPLE.member, account: owner.account! });
  await createConsoleUser(harness, 'admin', CONSOLE_PEOPLE.admin);
  const origin = await harness.app.listen({ host: '127.0.0.1', port });
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
    role?: ConsoleRoleName;
    locale?: string;
  } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL: server.origin,
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-US',
    timezoneId: 'Asia/Bangkok',
  });
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  if (options.role) await signInAs(context, server, options.role);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return { page, context, errors, close: () => context.close() };
}

/**
 * Signs the browser context in as the server's person of `role`, through the real session API
 * (the context's request client shares the browser's cookies): the anonymous session's CSRF
 * token, then the sign-in, from the console's own origin.
 */
export async function signInAs(
  context: BrowserContext,
  server: ConsoleServer,
  role: ConsoleRoleName,
): Promise<void> {
  const probe = await context.request.get(`${server.origin}/console/api/session`);
  assert.equal(probe.status(), 200, await probe.text());
  const { csrfToken } = (await probe.json()) as { csrfToken: string };
  const { email } = CONSOLE_PEOPLE[role];
  const user = await server.harness.store.findUserByEmail(email);
  const totpCode = user ? await currentTotpCode(server.harness, user) : undefined;
  const response = await context.request.post(`${server.origin}/console/api/session`, {
    headers: { 'x-csrf-token': csrfToken, origin: server.origin },
    data: { email, password: CONSOLE_PASSWORD, ...(totpCode && { totpCode }) },
  });
  assert.equal(response.status(), 200, await response.text());
}

/**
 * Writes `test-artifacts/screenshots/<name>.png`: the whole page, or with `{ fullPage: false }`
 * what the window shows (an open phone navigation covers the window, not the page below it).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Chromium may stop drawing a page that is not its front one, and a capture then waits for a
  // frame that never comes: with several people's pages open in one browser, put this one first.
  await page.bringToFront();
  // From the top: a page scrolled (by a focused button) shows its fixed header mid-picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  // After a resize the navigation slides to its new place: wait for every finite transition or
  // animation, or the picture shows the page half-way (a spinner's endless one is not waited for).
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime));
    const settled = Promise.all(finite.map((animation) => animation.finished.catch(() => {})));
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}
