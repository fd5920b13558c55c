/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createPlatformAdmin } from '../../src/domain/users/create-platform-admin.js';
import {
  assertNoErrors,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
  type ConsoleServer,
} from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';

const STEP_MS = 30_000;

/** What an authenticator app shows for `secret` (as the page printed it) at `nowMs`. */
function appCode(secret: string, nowMs: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')) });
  return totp.generate({ timestamp: nowMs });
}

/** Sets up two-factor sign-in on the profile page as a person would; answers the key shown. */
async function enrolOnProfile(page: Page, server: ConsoleServer, shot?: string) {
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const qr = page.getByRole('img', { name: 'QR code to add Nok to an authenticator app' });
  await qr.waitFor();
  assert.ok((await qr.getAttribute('src'))!.startsWith('data:image/svg+xml;base64,'));
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  if (shot) await screenshot(page, shot);
  await page.getByLabel(/^Code from the app/).fill(appCode(secret, server.harness.clock.now()));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  const codes = await page.getByTestId('recovery-code').allTextContents();
  return { secret, codes };
}

async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');
describe(`two-factor sign-in in Chromium (${engine.name})`, () => {
  const pages = consoleInChromium(engine);

  it('a new platform admin is sent to enrol, scans the QR code, keeps the recovery codes, and then signs in with a code', async () => {
    const password = 'first admin passphrase';
    await createPlatformAdmin(pages.server.harness.store, {
      email: 'first.admin@nok.example',
      name: 'First Admin',
      password,
      nowMs: pages.server.harness.clock.now(),
      actor: SYSTEM_ACTOR,
    });
    const watched = await pages.open();
    const { page } = watched;
    await page.goto('/console/admin/accounts');
    await expectHeading(page, 'Sign in to Nok');
    await signInOnPage(page, 'first.admin@nok.example', password);

    // Restricted: whatever was asked for, the profile page, until enrolled.
    await expectHeading(page, 'Profile and security');
    assert.equal(new URL(page.url()).pathname, '/console/profile');
    await page.getByText('Two-factor sign-in is required for you').waitFor();
    await page.goto('/console/admin/accounts');
    await expectHeading(page, 'Profile and security');

    const { secret, codes } = await enrolOnProfile(
      page,
      pages.server,
      'two-factor-enrol-qr-desktop',
    );
    assert.equal(codes.length, 10);
    for (const code of codes) assert.match(code, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    await page.getByRole('button', { name: 'Download as a file' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'two-factor-recovery-codes-desktop');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/Recovery codes left: 10/).waitFor();
    assert.equal(await page.getByTestId('recovery-code').count(), 0, 'shown once only');
    await page.goto('/console/admin/accounts');
    await expectHeading(page, 'Accounts');

    // Sign out, and back in: the password, then the code.
    await page.getByRole('button', { name: 'Account menu for First Admin' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in to Nok');
    pages.server.harness.clock.advance(STEP_MS);
    await signInOnPage(page, 'first.admin@nok.example', password);
    const codeField = page.getByLabel(/^Authentication code/);
    await codeField.waitFor();
    await page.getByText('Enter the code your authenticator app shows now').waitFor();
    await screenshot(page, 'sign-in-totp-step-desktop');
    await codeField.fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That code is not right or was used already').waitFor();
    await codeField.fill(appCode(secret, pages.server.harness.clock.now()));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectHeading(page, 'Accounts');
    await page.setViewportSize(PHONE);
    await page.goto('/console/profile');
    await expectHeading(page, 'Profile and security');
    await page.getByText(/Recovery codes left: 10/).waitFor();
    await screenshot(page, 'profile-admin-phone');
    // The wrong code and the signed-out probes are 401s the browser logs; nothing else.
    assertNoErrors(watched, /status of 401/);
    await watched.close();
  });

  it('an owner requires two-factor sign-in for the account, and a member is then sent to enrol', async () => {
    const owner = await pages.open({ role: 'owner' });
    await owner.page.goto('/console/profile');
    await expectHeading(owner.page, 'Profile and security');
    const requireSwitch = owner.page.getByRole('switch', {
      name: 'Require two-factor sign-in for everyone in this account',
    });
    await requireSwitch.waitFor();
    assert.ok(await requireSwitch.isDisabled(), 'an owner without it cannot require it yet');
    await screenshot(owner.page, 'profile-owner-desktop');

    await enrolOnProfile(owner.page, pages.server);
    await owner.page.getByRole('button', { name: 'I have saved them' }).click();
    await owner.page.getByText(/Recovery codes left: 10/).waitFor();
    assert.ok(await requireSwitch.isEnabled());
    await requireSwitch.click({ force: true });
    await owner.page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const account = await pages.server.harness.store.findAccount(
      (await pages.server.harness.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!.accountId!,
    );
    assert.equal(account!.requireTotp, true);
    await screenshot(owner.page, 'profile-owner-requires-two-factor-desktop');
    assertNoErrors(owner);
    await owner.close();

    const member = await pages.open({ role: 'member', viewport: PHONE });
    await member.page.goto('/console/sender-names');
    await expectHeading(member.page, 'Profile and security');
    await member.page.getByText('Two-factor sign-in is required for you').waitFor();
    await member.page.getByText('Your account requires two-factor sign-in of everyone.').waitFor();
    await screenshot(member.page, 'profile-member-must-enrol-phone');
    pages.server.harness.clock.advance(STEP_MS);
    await enrolOnProfile(member.page, pages.server, 'two-factor-enrol-qr-phone');
    await member.page.getByRole('button', { name: 'I have saved them' }).click();
    await member.page.goto('/console/sender-names');
    await expectHeading(member.page, 'Sender names');
    assertNoErrors(member);
    await member.close();
  });

  it('reads in Thai: the two-factor card and the account switch of an owner who turned them on', async () => {
    const owner = await pages.open({
      role: 'owner',
      locale: 'th-TH',
      viewport: PHONE,
    });
    await owner.page.goto('/console/profile');
    await owner.page.getByRole('heading', { name: 'การยืนยันตัวตนสองขั้นตอน', exact: true }).waitFor();
    await owner.page
      .getByRole('switch', { name: 'กำหนดให้ทุกคนในบัญชีนี้ใช้การยืนยันตัวตนสองขั้นตอน' })
      .waitFor();
    await screenshot(owner.page, 'profile-owner-th-phone');
    assertNoErrors(owner);
    await owner.close();
  });
});
