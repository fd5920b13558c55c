/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { FONT_STACK } from '../../web/src/lib/font-stack.js';
import { accessibilityProblems } from '../support/accessibility.js';
import {
  assertNoErrors,
  CONSOLE_PASSWORD,
  consoleInChromium,
  DESKTOP,
  expectHeading,
  PHONE,
  screenshot,
  fontsUsed,
  thaiFamilies,
} from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';

/** The main areas, as a user reaches them: path under /console, heading in English. */
const CUSTOMER_AREAS = [
  ['dashboard', 'Dashboard'],
  ['messages/new', 'Send a message'],
  ['messages', 'Messages'],
  ['contact-groups', 'Contact groups'],
  ['templates', 'Templates'],
  ['blocklist', 'Blocklist'],
  ['api-keys', 'API keys'],
  ['sender-names', 'Sender names'],
  ['sender-names/new', 'Request a sender name'],
  ['credits', 'Credits'],
  ['users', 'Users'],
  ['audit-log', 'Audit log'],
  ['profile', 'Profile and security'],
] as const;
const ADMIN_AREAS = [
  ['admin/accounts', 'Accounts'],
  ['admin/dashboard', 'Platform dashboard'],
  ['admin/messages', 'Messages'],
  ['admin/sender-review', 'Sender review'],
  ['admin/senders', 'Senders'],
  ['admin/blocklist', 'Platform blocklist'],
  ['admin/carriers', 'Carriers'],
] as const;

/** Whether an element lies wholly outside the viewport (a slid-away navigation). */
async function isOffScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x + box.width <= 0;
}

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('postgres');
describe(`the console in Chromium (${engine.name})`, () => {
  const pages = consoleInChromium(engine);

  it('loads at /console and sends a signed-out visitor to sign-in, keeping the page asked for', async () => {
    const watched = await pages.open();
    const { page } = watched;
    const response = await page.goto('/console/credits');
    assert.equal(response?.status(), 200);
    await expectHeading(page, 'Sign in to Nok');
    assert.equal(new URL(page.url()).pathname, '/console/sign-in');
    assert.equal(new URL(page.url()).searchParams.get('next'), '/credits');
    // Labels read "Email *": the required mark is hidden from screen readers, not from text.
    await page.getByLabel(/^Email/).waitFor();
    await page.getByLabel(/^Password/).waitFor();
    // Signed out, the page is its form alone, in its main landmark.
    assert.deepEqual(await accessibilityProblems(page, ['main']), []);
    await screenshot(page, 'sign-in-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'sign-in-phone');
    assertNoErrors(watched);
    await watched.close();
  });

  it('signs in from the sign-in page, says no to a wrong password, and lands on the page asked for', async () => {
    const watched = await pages.open();
    const { page } = watched;
    const posts: { csrf: string | undefined; status: number }[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') {
        posts.push({
          csrf: response.request().headers()['x-csrf-token'],
          status: response.status(),
        });
      }
    });
    await page.goto('/console/credits');
    await expectHeading(page, 'Sign in to Nok');
    await page.getByLabel(/^Email/).fill('somchai@example.co.th');
    await page.getByLabel(/^Password/).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The email or password is not right').waitFor();

    await page.getByLabel(/^Password/).fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectHeading(page, 'Credits');
    // Both posts carried the session's CSRF token; the API client read it from the session.
    assert.deepEqual(
      posts.map((post) => post.status),
      [401, 200],
    );
    assert.ok(posts[0]!.csrf && posts[0]!.csrf.length >= 32, 'the first post had no token');
    assert.equal(posts[1]!.csrf, posts[0]!.csrf, 'both posts carry the anonymous session token');
    // The refused sign-in is a 401 the browser logs; nothing else went wrong.
    assert.deepEqual(
      watched.errors.filter((error) => !/status of 401/.test(error)),
      [],
    );
    await watched.close();
  });

  it('opens a deep link from index.html, with no error in the console', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    const response = await page.goto('/console/sender-names');
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
    await expectHeading(page, 'Sender names');
    assert.equal(await page.title(), 'Sender names · Nok console');
    await page.goto('/console');
    await expectHeading(page, 'Dashboard');
    assert.equal(new URL(page.url()).pathname, '/console/dashboard');
    assertNoErrors(watched);
    await watched.close();
  });

  it('serves the page without inline script, under its policy, and assets as immutable', async () => {
    const response = await fetch(`${pages.server.origin}/console/`);
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    const policy = response.headers.get('content-security-policy') ?? '';
    assert.match(policy, /(^|; )script-src 'self'(;|$)/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.doesNotMatch(policy, /script-src[^;]*unsafe/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'same-origin');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0, html);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes ?? '', /\bsrc="\/console\/assets\/[^"]+"/, 'a script without src');
      assert.equal(body?.trim(), '', 'an inline script');
    }
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(
      ([, path]) => path!,
    );
    assert.ok(assets.some((path) => path.endsWith('.css')));
    for (const path of assets) {
      const asset = await fetch(`${pages.server.origin}${path}`);
      assert.equal(asset.status, 200, path);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(asset.headers.get('x-content-type-options'), 'nosniff');
      await asset.arrayBuffer();
    }
  });

  it('switches between English and Thai, remembers the choice, and draws Thai with a Thai font', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    await page.goto('/console/dashboard');
    await expectHeading(page, 'Dashboard');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');

    await page.getByText('ไทย', { exact: true }).click();
    await expectHeading(page, 'แดชบอร์ด');
    assert.equal(await page.locator('html').getAttribute('lang'), 'th');
    await page.reload();
    await expectHeading(page, 'แดชบอร์ด');
    await page.getByRole('navigation', { name: 'เมนูหลัก' }).waitFor();

    const fonts = await fontsUsed(page, 'h1');
    const installed = thaiFamilies();
    const stack = FONT_STACK.map((family) => family.replaceAll('"', ''));
    const expected = stack.find((family) => installed.has(family));
    assert.ok(expected, `no family of the stack is a Thai font here: ${[...installed]}`);
    assert.deepEqual(
      fonts.map((font) => font.familyName),
      [expected],
      `the Thai heading is drawn with ${JSON.stringify(fonts)}`,
    );
    await screenshot(page, 'dashboard-thai-desktop');

    assert.equal(await page.getByRole('radio', { name: 'ไทย' }).isChecked(), true);
    await page.getByText('English', { exact: true }).click();
    await expectHeading(page, 'Dashboard');
    assertNoErrors(watched);
    await watched.close();
  });

  it('at phone width, hides the navigation behind a burger that opens and closes it', async () => {
    const watched = await pages.open({ role: 'owner', viewport: PHONE });
    const { page } = watched;
    await page.goto('/console/dashboard');
    await expectHeading(page, 'Dashboard');
    const burger = page.getByRole('button', { name: 'Open navigation' });
    const nav = page.locator('nav#console-navigation');
    const link = nav.getByRole('link', { name: 'Sender names' });
    assert.equal(await burger.getAttribute('aria-expanded'), 'false');
    // Closed: off the screen, and inert (out of the tab order and the accessibility tree).
    assert.ok(await isOffScreen(link));
    assert.equal(await nav.evaluate((element) => (element as HTMLElement).inert), true);
    await screenshot(page, 'dashboard-phone');

    await burger.click();
    const close = page.getByRole('button', { name: 'Close navigation' });
    assert.equal(await close.getAttribute('aria-expanded'), 'true');
    assert.equal(await nav.evaluate((element) => (element as HTMLElement).inert), false);
    await page.waitForFunction((width) => {
      const box = document.querySelector('nav#console-navigation')?.getBoundingClientRect();
      return box !== undefined && box.left >= 0 && box.right <= width;
    }, PHONE.width);
    await screenshot(page, 'navigation-open-phone', { fullPage: false });

    await link.click();
    await expectHeading(page, 'Sender names');
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    assert.equal(await nav.evaluate((element) => (element as HTMLElement).inert), true);
    assertNoErrors(watched);
    await watched.close();
  });

  it('works by keyboard: a skip link to the page, the burger and the links by Enter', async () => {
    const watched = await pages.open({ role: 'owner', viewport: PHONE });
    const { page } = watched;
    await page.goto('/console/dashboard');
    await expectHeading(page, 'Dashboard');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.equal(await skip.evaluate((element) => element === document.activeElement), true);
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Open navigation',
    );
    await page.keyboard.press('Enter');
    const link = page.getByRole('link', { name: 'Credits' });
    await link.waitFor();
    await link.focus();
    await page.keyboard.press('Enter');
    await expectHeading(page, 'Credits');
    // The new page has the focus, as after a full page load.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    assertNoErrors(watched);
    await watched.close();
  });

  it('opens every customer area for an owner, each with its controls named for a screen reader and its landmarks', async () => {
    const watched = await pages.open({ role: 'owner' });
    const { page } = watched;
    for (const [path, title] of CUSTOMER_AREAS) {
      await page.goto(`/console/${path}`);
      await expectHeading(page, title);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await accessibilityProblems(page), [], path);
      // One menu entry is the current page (/messages/new is not also "Messages").
      assert.equal(await page.locator('nav [aria-current="page"]').count(), 1, path);
      await screenshot(page, `${path.replace('/', '-')}-desktop`);
    }
    assert.equal(await page.getByRole('link', { name: 'Accounts' }).count(), 0);
    assertNoErrors(watched);
    await watched.close();
  });

  it('keeps a member out of the owner areas, and out of their menu', async () => {
    const watched = await pages.open({ role: 'member' });
    const { page } = watched;
    await page.goto('/console/dashboard');
    await expectHeading(page, 'Dashboard');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    assert.deepEqual(await nav.getByRole('link').allTextContents(), [
      'Dashboard',
      'Send a message',
      'Messages',
      'Contact groups',
      'Templates',
      'Blocklist',
      'Sender names',
      'Profile and security',
    ]);
    await page.goto('/console/api-keys');
    await expectHeading(page, 'Not available to you');
    // A member reads the sender names but cannot request one (the server refuses it too).
    await page.goto('/console/sender-names');
    await expectHeading(page, 'Sender names');
    assert.equal(await page.getByRole('link', { name: 'Request a sender name' }).count(), 0);
    await page.goto('/console/sender-names/new');
    await expectHeading(page, 'Not available to you');
    assertNoErrors(watched);
    await watched.close();
  });

  it('lands a platform admin on the admin areas, and keeps customers out of them', async () => {
    const watched = await pages.open({ role: 'admin' });
    const { page } = watched;
    await page.goto('/console');
    await expectHeading(page, 'Accounts');
    for (const [path, title] of ADMIN_AREAS) {
      await page.goto(`/console/${path}`);
      await expectHeading(page, title);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await accessibilityProblems(page), [], path);
      await screenshot(page, `${path.replace('/', '-')}-desktop`);
    }
    assertNoErrors(watched);
    await watched.close();

    const owner = await pages.open({ role: 'owner' });
    await owner.page.goto('/console/admin/carriers');
    await expectHeading(owner.page, 'Not available to you');
    assertNoErrors(owner);
    await owner.close();
  });

  it('answers an unknown page inside the console with its not-found page', async () => {
    const watched = await pages.open({ role: 'owner', viewport: DESKTOP });
    const { page } = watched;
    await page.goto('/console/no/such/page');
    await expectHeading(page, 'Page not found');
    assertNoErrors(watched);
    await watched.close();
  });
});
