/**
 * Issue 8's whole story, in a real Chromium against a real Nok with a real SMTP server: the
 * operator makes the first platform admin with `nok admin user create --admin`, who sets up
 * two-factor sign-in and lets a new customer in, the customer's owner gets going, a sender name is
 * verified with documents, the owner's new key sends from it, a member is kept out of keys,
 * and the audit log holds every step.
 *
 * Every step is taken on the console's pages; the console API is called directly only to show
 * that a member is refused the keys API as well as the keys page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../src/domain/users/totp.js';
import { smtpMailer } from '../../src/mail/smtp-mailer.js';
import {
  expectHeading,
  launchChromium,
  openPage,
  PHONE,
  screenshot,
  type WatchedPage,
} from '../support/console-browser.js';
import { readFileSync } from 'node:fs';
import { runNok } from '../cli/nok-process.js';
import { pdfBytes, pngBytes } from '../support/documents.js';
import { pageEngine } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { createHarness, type Harness } from '../support/harness.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';

const ADMIN = { email: 'ops@nok.example', name: 'Platform Admin' };
const OWNER = { email: 'malee@bangkok-bakery.example', name: 'Malee Srisuk' };
const MEMBER = { email: 'niran@bangkok-bakery.example', name: 'Niran Baker' };
const OWNER_PASSWORD = 'a long and good owner password';
const MEMBER_PASSWORD = 'a long and good member password';
const ACCOUNT = 'Bangkok Bakery';
const SENDER = 'BKKBAKERY';

// One engine is enough for the browser; the API tests run both.
const engine = pageEngine('postgres');

describe(`issue 8's whole story in Chromium (${engine.name})`, () => {
  let browser: Browser;
  let inbox: SmtpInbox;
  let mailer: ReturnType<typeof smtpMailer>;
  let harness: Harness;
  let origin: string;
  const opened: WatchedPage[] = [];

  before(async () => {
    [browser, inbox] = await Promise.all([launchChromium(), startSmtpInbox()]);
    mailer = smtpMailer(inbox.smtpUrl, 'Nok <no-reply@nok.example>');
    // The mailed links carry the public address, so the port is chosen before the app is built.
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    harness = await createHarness(engine, {
      mailer,
      publicUrl: origin,
      logger: pino({ level: 'silent' }),
    });
    await harness.app.listen({ host: '127.0.0.1', port });
  });

  after(async () => {
    for (const watched of opened) await watched.close();
    await browser?.close();
    await harness?.close();
    mailer?.close();
    await inbox?.close();
  });

  /** A fresh browser profile of its own (one person), watching for errors. */
  async function person(): Promise<WatchedPage> {
    const watched = await openPage(browser, { harness, origin, close: () => harness.close() });
    opened.push(watched);
    return watched;
  }

  /**
   * A console API call from a browser context, as its pages make them: the session's cookie
   * and CSRF token, the console's own Origin.
   */
  async function consoleCall(
    context: BrowserContext,
    method: 'GET' | 'POST',
    path: string,
    data?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const session = await context.request.get(`${origin}/console/api/session`);
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const response = await context.request.fetch(`${origin}/console/api${path}`, {
      method,
      headers: { 'x-csrf-token': csrfToken, origin },
      data,
    });
    return { status: response.status(), body: await response.json().catch(() => null) };
  }

  /** Signs in on the sign-in page: password, then the authenticator's code when asked. */
  async function signIn(
    page: Page,
    email: string,
    password: string,
    totpSecret: string,
    shot?: string,
  ): Promise<void> {
    await page.goto('/console/sign-in');
    await expectHeading(page, 'Sign in to Nok');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.getByLabel(/^Authentication code/);
    await code.waitFor();
    await code.fill(totpCode(totpSecret, harness.clock.now()));
    if (shot) await screenshot(page, shot);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /**
   * Opens the invitation mailed to `email` in `page` (a browser nobody signed in to), as its
   * reader would, and joins: name, a password twice. Lands on the dashboard, signed in.
   */
  async function acceptMailedInvitation(
    page: Page,
    email: string,
    role: string,
    password: string,
    shot: string,
    /** The name to give, when the invitation offers none (or another one). */
    name?: string,
  ): Promise<void> {
    const mail = await inbox.next(email);
    const link = linkIn(mail, '/console/accept-invitation#token=');
    assert.ok(link.startsWith(`${origin}/console/accept-invitation#token=`), link);
    await page.goto(link);
    await expectHeading(page, 'Join Nok');
    await page.getByText(`You are invited to ${ACCOUNT} as ${role}`).waitFor();
    assert.equal(await page.getByLabel('Email').inputValue(), email);
    if (name !== undefined) await page.getByLabel(/^Your name/).fill(name);
    await page.getByLabel(/^Choose a password/).fill(password);
    await page.getByLabel(/^Type the password again/).fill(password);
    await screenshot(page, shot);
    await page.getByRole('button', { name: 'Join and sign in' }).click();
    await page.waitForURL(/\/console\/dashboard$/);
  }

  it('the admin lets Bangkok Bakery in; its owner gets going, gets a sender verified and sends; a member is kept out of keys; the audit log shows it all', async () => {
    // 0. The operator makes the first platform admin at the command line, as on a new install:
    // the password is shown once, and two-factor sign-in is set up at the first sign-in.
    const made = await runNok(harness.db, [
      'admin',
      'user',
      'create',
      '--admin',
      '--email',
      ADMIN.email,
      '--name',
      ADMIN.name,
    ]);
    assert.equal(made.code, 0, made.stderr);
    const adminPassword = /store it now:\n(.+)\n/.exec(made.stdout)?.[1];
    assert.ok(adminPassword, made.stdout);
    const first = await person();
    await first.page.goto('/console/sign-in');
    await first.page.getByLabel(/^Email/).fill(ADMIN.email);
    await first.page.getByLabel(/^Password/).fill(adminPassword);
    await first.page.getByRole('button', { name: 'Sign in' }).click();
    // Nothing else opens until two-factor sign-in is set up.
    await expectHeading(first.page, 'Profile and security');
    await first.page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await first.page
      .getByRole('img', { name: 'QR code to add Nok to an authenticator app' })
      .waitFor();
    const adminSecret = (await first.page.getByTestId('totp-secret').textContent())!.replace(
      /\s/g,
      '',
    );
    await first.page
      .getByLabel(/^Code from the app/)
      .fill(totpCode(adminSecret, harness.clock.now()));
    await first.page.getByRole('button', { name: 'Turn on' }).click();
    await first.page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await screenshot(first.page, 'story-00-admin-enrols-totp');
    await first.page.getByRole('button', { name: 'I have saved them' }).click();
    await first.page.getByText(/Recovery codes left: 10/).waitFor();
    await first.close();
    harness.clock.advance(30_000);

    // 1. The admin signs in with a TOTP code and creates the account.
    const admin = await person();
    await signIn(admin.page, ADMIN.email, adminPassword, adminSecret, 'story-01-admin-totp');
    await expectHeading(admin.page, 'Accounts');
    await screenshot(admin.page, 'story-01-admin-signed-in');
    // The one code of that step is used up: the next sign-in needs the next step's.
    harness.clock.advance(30_000);
    await admin.page.getByRole('button', { name: 'Create account' }).click();
    const create = admin.page.getByRole('dialog', { name: 'Create an account' });
    await create.getByLabel(/^Name/).fill(ACCOUNT);
    await create.getByLabel('Opening credits').fill('1000');
    // 2. … and, in the same form, invites its owner, who gets the link by mail.
    await create.getByLabel(/^Owner's email/).fill(OWNER.email);
    await screenshot(admin.page, 'story-02-admin-creates-account-and-invites');
    await create.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(admin.page, ACCOUNT);
    const people = admin.page.getByRole('region', { name: 'People and invitations' });
    await people.getByRole('row', { name: new RegExp(OWNER.email) }).waitFor();
    await screenshot(admin.page, 'story-02-admin-account-created');
    const accountId = Number(/\/admin\/accounts\/(\d+)/.exec(admin.page.url())![1]);

    // 3. The owner opens the mailed link, gives a name and a password, and is signed in.
    let owner = await person();
    await acceptMailedInvitation(
      owner.page,
      OWNER.email,
      'Owner',
      OWNER_PASSWORD,
      'story-03-owner-accepts-invitation',
      OWNER.name,
    );
    await expectHeading(owner.page, 'Dashboard');
    await screenshot(owner.page, 'story-03-owner-signed-in');

    // The owner enrols in TOTP on the profile page: the QR code, the key to type, a code from
    // the app, and ten recovery codes shown once.
    await owner.page.goto('/console/profile');
    await expectHeading(owner.page, 'Profile and security');
    await owner.page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await owner.page
      .getByRole('img', { name: 'QR code to add Nok to an authenticator app' })
      .waitFor();
    const ownerSecret = (await owner.page.getByTestId('totp-secret').textContent())!.replace(
      /\s/g,
      '',
    );
    await screenshot(owner.page, 'story-03-owner-enrols-totp');
    await owner.page
      .getByLabel(/^Code from the app/)
      .fill(totpCode(ownerSecret, harness.clock.now()));
    await owner.page.getByRole('button', { name: 'Turn on' }).click();
    await owner.page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    assert.equal(await owner.page.getByTestId('recovery-code').count(), 10);
    await screenshot(owner.page, 'story-03-owner-recovery-codes');
    await owner.page.getByRole('button', { name: 'I have saved them' }).click();
    await owner.page.getByText(/Recovery codes left: 10/).waitFor();
    harness.clock.advance(30_000);
    // From now on the owner's password alone does not sign in: the code is asked for.
    await owner.close();
    const ownerAgain = await person();
    await signIn(ownerAgain.page, OWNER.email, OWNER_PASSWORD, ownerSecret, 'story-03-owner-totp');
    await expectHeading(ownerAgain.page, 'Dashboard');
    owner = ownerAgain;

    // 4. The owner creates a key and sees it once.
    await owner.page.goto('/console/api-keys');
    await expectHeading(owner.page, 'API keys');
    await owner.page.getByRole('button', { name: 'Create key' }).click();
    const keyDialog = owner.page.getByRole('dialog', { name: 'Create an API key' });
    await keyDialog.getByLabel(/^Name/).fill('shop server');
    await keyDialog.getByRole('button', { name: 'Create key' }).click();
    const secretBox = owner.page.getByTestId('api-key-secret');
    await secretBox.waitFor();
    const key = await secretBox.inputValue();
    assert.match(key, /^nok_[a-z2-7]{12}_/);
    await screenshot(owner.page, 'story-04-owner-key-shown-once');
    await owner.page.getByRole('button', { name: 'I have stored it' }).click();
    await owner.page.reload();
    await owner.page.getByRole('row', { name: /shop server/ }).waitFor();
    assert.ok(!(await owner.page.content()).includes(key), 'the key is shown once only');

    // The sender is not approved yet: the key cannot send from it.
    const send = () =>
      fetch(`${origin}/api/v2/sms/send`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          sender: SENDER,
          content: 'Fresh bread at 7 tomorrow',
          msisdns: ['0812345678'],
        }),
      });
    const early = await send();
    assert.notEqual(early.status, 200, 'a sender not approved yet cannot send');
    await early.arrayBuffer();

    // 5. The owner requests the sender name with a PDF and a PNG.
    await owner.page.goto('/console/sender-names/new');
    await expectHeading(owner.page, 'Request a sender name');
    await owner.page.getByLabel(/^Sender name/).fill(SENDER);
    await owner.page.getByLabel(/^Sample message 1/).fill('Your order is ready: collect by 18:00');
    await owner.page.getByLabel(/^Company registration number/).fill('0105561234567');
    await owner.page.locator('input[type=file]').setInputFiles([
      { name: 'company-certificate.pdf', mimeType: 'application/pdf', buffer: pdfBytes() },
      { name: 'shop-front.png', mimeType: 'image/png', buffer: pngBytes() },
    ]);
    await owner.page.getByRole('button', { name: 'Send for review' }).click();
    await expectHeading(owner.page, SENDER);
    await owner.page.getByText('Waiting for review').first().waitFor();
    await screenshot(owner.page, 'story-05-owner-sender-requested');

    // 6. The admin opens both documents and asks for changes; the owner is told by mail.
    await admin.page.goto('/console/admin/sender-review');
    await expectHeading(admin.page, 'Sender review');
    await admin.page.getByRole('link', { name: SENDER }).click();
    await expectHeading(admin.page, SENDER);
    // Each document opens from its link as a download: the server answers it as an attachment
    // of the type its bytes showed, so the browser saves it instead of showing it, byte for
    // byte what the owner sent. A download never reaches the page's response events; the route
    // passes the server's answer on as it is, noting its headers on the way.
    const answered: Record<string, string>[] = [];
    await admin.page.route('**/console/api/sender-documents/*', async (route) => {
      const response = await route.fetch();
      answered.push(response.headers());
      await route.fulfill({ response });
    });
    for (const [name, type, bytes] of [
      ['company-certificate.pdf', 'application/pdf', pdfBytes()],
      ['shop-front.png', 'image/png', pngBytes()],
    ] as const) {
      const [download] = await Promise.all([
        admin.page.waitForEvent('download'),
        admin.page.getByRole('link', { name }).click(),
      ]);
      assert.equal(download.suggestedFilename(), name);
      assert.deepEqual(readFileSync((await download.path())!), Buffer.from(bytes));
      const headers = answered.shift()!;
      assert.equal(headers['content-type'], type);
      assert.match(
        headers['content-disposition'] ?? '',
        new RegExp(`^attachment; filename="${name}"`),
      );
      assert.equal(headers['x-content-type-options'], 'nosniff');
    }
    await admin.page.unroute('**/console/api/sender-documents/*');
    await screenshot(admin.page, 'story-06-admin-reviews-documents');
    const note = 'Please send a certificate issued in the last six months';
    await admin.page.getByLabel(/^Note to the owner/).fill(note);
    await admin.page.getByRole('button', { name: 'Ask for changes' }).click();
    await admin.page.getByText('Changes requested').first().waitFor();
    const told = await inbox.next(OWNER.email);
    assert.ok(told.text.includes(note), `the owner's mail carries the note:\n${told.text}`);

    // 7. The owner reads the note and resubmits with a new certificate.
    await owner.page.reload();
    await owner.page.getByText(note).first().waitFor();
    await owner.page.locator('input[type=file]').setInputFiles([
      {
        name: 'company-certificate-2026.pdf',
        mimeType: 'application/pdf',
        buffer: pdfBytes('Issued November 2026'),
      },
    ]);
    await owner.page.getByRole('button', { name: 'Resubmit for review' }).click();
    await owner.page.getByRole('link', { name: 'company-certificate-2026.pdf' }).waitFor();
    await screenshot(owner.page, 'story-07-owner-resubmitted');

    // 8. The admin approves.
    await admin.page.reload();
    await admin.page.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByRole('heading', { name: 'The sender' }).waitFor();
    await screenshot(admin.page, 'story-08-admin-approved');
    await inbox.next(OWNER.email);

    // 9. The new key sends through /api/v2 from the approved sender.
    const sent = await send();
    const body = (await sent.json()) as { sender: string; status: string; uuid: string };
    assert.equal(sent.status, 200, JSON.stringify(body));
    assert.equal(body.sender, SENDER);
    await owner.page.goto('/console/sender-names');
    await owner.page.getByRole('table', { name: 'Your sender names' }).getByText(SENDER).waitFor();
    await screenshot(owner.page, 'story-09-owner-sender-approved-and-used');

    // 10. The owner invites a member from the users page; the member joins by the mailed link
    // and can open neither the keys page nor the keys API.
    await owner.page.goto('/console/users');
    await expectHeading(owner.page, 'Users');
    const invite = owner.page.getByRole('region', { name: 'Invite someone' });
    await invite.getByLabel(/^Email/).fill(MEMBER.email);
    await invite.getByLabel(/^Name/).fill(MEMBER.name);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const pending = owner.page.getByRole('region', { name: 'Pending invitations' });
    await pending.getByRole('row', { name: new RegExp(MEMBER.email) }).waitFor();
    await screenshot(owner.page, 'story-10-owner-invites-member');
    const member = await person();
    await acceptMailedInvitation(
      member.page,
      MEMBER.email,
      'Member',
      MEMBER_PASSWORD,
      'story-10-member-accepts-invitation',
    );
    await member.page.goto('/console/api-keys');
    await member.page.getByText('Not available to you').waitFor();
    await screenshot(member.page, 'story-10-member-kept-out-of-keys');
    const keysApi = await consoleCall(member.context, 'GET', '/keys');
    assert.equal(keysApi.status, 403);
    assert.equal((keysApi.body as { code: string }).code, 'FORBIDDEN');
    const createApi = await consoleCall(member.context, 'POST', '/keys', {
      name: 'sneaky',
      scopes: ['*'],
    });
    assert.equal(createApi.status, 403);

    // 11. The audit log shows every step: the owner's of the account, the admin's of it too.
    await owner.page.goto('/console/audit-log');
    await expectHeading(owner.page, 'Audit log');
    const ownerLog = owner.page.getByRole('table', { name: 'Audit log, newest first' });
    for (const action of [
      'Invitation sent',
      'Invitation accepted',
      'Two-factor sign-in turned on',
      'Signed in',
      'API key created',
      'Sender name requested',
      'Changes asked for a sender name request',
      'Sender name request resubmitted',
      'Sender name approved',
    ]) {
      await ownerLog.getByText(action, { exact: true }).first().waitFor();
    }
    assert.ok(!(await owner.page.content()).includes(key), 'no key in the log');
    await screenshot(owner.page, 'story-11-owner-audit-log');

    await admin.page.goto(`/console/audit-log?accountId=${accountId}`);
    await expectHeading(admin.page, 'Audit log');
    const accountFilter = admin.page.getByRole('combobox', { name: 'Account' });
    await admin.page.waitForFunction(
      (name) =>
        Array.from(document.querySelectorAll('input')).some((input) => input.value === name),
      `${ACCOUNT} (#${accountId})`,
    );
    assert.equal(await accountFilter.inputValue(), `${ACCOUNT} (#${accountId})`);
    const adminLog = admin.page.getByRole('table', { name: 'Audit log, newest first' });
    for (const action of [
      'Account created',
      'Invitation sent',
      'Invitation accepted',
      'Two-factor sign-in turned on',
      'API key created',
      'Sender name requested',
      'Changes asked for a sender name request',
      'Sender name request resubmitted',
      'Sender name approved',
    ]) {
      await adminLog.getByText(action, { exact: true }).first().waitFor();
    }
    const rows = await adminLog.locator('tbody tr').allTextContents();
    assert.ok(
      rows.some((row) => row.includes('Invitation accepted') && row.includes(MEMBER.email)),
      'the member joining is in the log',
    );
    await screenshot(admin.page, 'story-12-admin-audit-log');

    // The admin's own sign-ins are in the platform's log: the first, by password alone (to set
    // up two-factor sign-in), then by password and TOTP code; and the operator's making them.
    await admin.page.goto('/console/audit-log?action=session.');
    await expectHeading(admin.page, 'Audit log');
    const sessionLog = admin.page.getByRole('table', { name: 'Audit log, newest first' });
    const adminSignIns = sessionLog
      .getByRole('row')
      .filter({ hasText: 'Signed in' })
      .filter({ hasText: ADMIN.name });
    await adminSignIns.filter({ hasText: 'Signed in with: totp' }).first().waitFor();
    await adminSignIns.filter({ hasText: 'Signed in with: password' }).first().waitFor();
    await screenshot(admin.page, 'story-12-admin-own-sign-ins');
    await admin.page.goto('/console/audit-log?action=user.');
    await sessionLog
      .getByRole('row')
      .filter({ hasText: 'User created' })
      .filter({ hasText: ADMIN.email })
      .first()
      .waitFor();
    await admin.page.setViewportSize(PHONE);
    await screenshot(admin.page, 'story-12-admin-audit-log-phone');

    for (const watched of [first, admin, owner, member]) {
      // The sign-in asking for the code is a 401 and the member's refused key calls are 403s,
      // which the browser logs; nothing else went wrong.
      assert.deepEqual(
        watched.errors.filter((error) => !/status of (401|403)/.test(error)),
        [],
        'errors in the browser console',
      );
    }
  });
});
