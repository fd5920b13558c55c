import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
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

export interface ConsoleServerOptions {
  /** Mail, e.g. to a test SMTP inbox; links in it point at this server's origin. */
  mailer?: HarnessOptions['mailer'];
}

export async function startConsoleServer(
  engine: TestEngine,
  options: ConsoleServerOptions = {},
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

/** A browser suite's Chromium and console server, and its pages. */
export interface ConsoleInChromium {
  readonly browser: Browser;
  readonly server: ConsoleServer;
  /** `openPage` on this suite's browser and server. */
  open(options?: PageOptions): Promise<WatchedPage>;
  /**
   * Runs `stop` after the suite's last test but before the server stops: for what uses the
   * server's store, such as a delivery rig (a suite's own `after` hooks run after this one's).
   */
  beforeStop(stop: () => Promise<void> | void): void;
}

/**
 * Chromium and a console server for the `describe` it is called in: both start before its first
 * test and stop after its last. A `before` hook the suite registers after this call runs after
 * the start, so it may use the server. `options` is read when the server starts, so an SMTP
 * inbox started by an earlier hook has its address by then.
 */
export function consoleInChromium(
  engine: TestEngine,
  options: () => ConsoleServerOptions = () => ({}),
): ConsoleInChromium {
  let started: { browser: Browser; server: ConsoleServer } | undefined;
  const stops: (() => Promise<void> | void)[] = [];
  const ready = () => {
    assert.ok(started, "the browser and the server start in the suite's before hook");
    return started;
  };
  before(async () => {
    const [browser, server] = await Promise.all([
      launchChromium(),
      startConsoleServer(engine, options()),
    ]);
    started = { browser, server };
  });
  after(async () => {
    for (const stop of stops) await stop();
    await started?.browser.close();
    await started?.server.close();
  });
  return {
    get browser() {
      return ready().browser;
    },
    get server() {
      return ready().server;
    },
    open: (pageOptions) => openPage(ready().browser, ready().server, pageOptions),
    beforeStop: (stop) => stops.push(stop),
  };
}

/** A page that records what went wrong in it: console errors (CSP refusals among them). */
export interface WatchedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Signed in as the server's person of this role; signed out without. */
  role?: ConsoleRoleName;
  locale?: string;
}

export async function openPage(
  browser: Browser,
  server: ConsoleServer,
  options: PageOptions = {},
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

/** Waits for the page's one level-1 heading to read `text`. */
export async function expectHeading(page: Page, text: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text, exact: true }).waitFor();
}

/** Fails on any error the page logged, but those `allowed` matches (a 401 the test provoked). */
export function assertNoErrors(watched: WatchedPage, allowed?: RegExp): void {
  const errors = watched.errors.filter((error) => !allowed?.test(error));
  assert.deepEqual(errors, [], 'errors in the browser console');
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

/** The Thai-capable font families this machine has (fontconfig), e.g. Loma, Garuda. */
export function thaiFamilies(): Set<string> {
  const listed = execFileSync('fc-list', [':lang=th', 'family'], { encoding: 'utf8' });
  return new Set(listed.split('\n').flatMap((line) => line.split(',').map((name) => name.trim())));
}

/** The platform fonts Chromium really drew the text of the first match of `selector` with. */
export async function fontsUsed(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts;
}
