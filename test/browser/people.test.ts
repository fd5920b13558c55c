/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { smtpMailer } from '../../src/mail/smtp-mailer.js';
import {
  assertNoErrors,
  CONSOLE_PASSWORD,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
  type WatchedPage,
} from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';

/** Opens a mailed link in a browser nobody has signed in to, as its reader would. */
async function openLink(watched: WatchedPage, link: string): Promise<void> {
  await watched.page.goto(link);
}

// A refused call (a used link, a removed person) shows in the console as a failed resource load.
const REFUSED = /the server responded with a status of (401|404|410)/;

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('postgres');
describe(`people in Chromium: invitations, members, password resets (${engine.name})`, () => {
  let inbox: SmtpInbox;
  before(async () => {
    inbox = await startSmtpInbox();
  });
  // The inbox starts first: the server's mail goes to it.
  const pages = consoleInChromium(engine, () => ({
    mailer: smtpMailer(inbox.smtpUrl, 'nok@example.test'),
  }));
  after(async () => {
    await inbox?.close();
  });

  it('an admin creates an account and invites its owner; the owner accepts by the mailed link, invites a member who accepts, and removes them', async () => {
    const ownerEmail = `owner.${engine.name}@bakery.example`;
    const memberEmail = `member.${engine.name}@bakery.example`;

    // The admin creates the account and, in the same form, invites its owner.
    const admin = await pages.open({ role: 'admin' });
    await admin.page.goto('/console/admin/accounts');
    await admin.page.getByRole('button', { name: 'Create account' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Create an account' });
    await dialog.getByLabel(/^Name/).fill('Chiang Mai Bakery');
    await dialog.getByLabel(/^Owner's email/).fill(ownerEmail);
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(admin.page, 'Chiang Mai Bakery');
    const people = admin.page.getByRole('region', { name: 'People and invitations' });
    await people.getByRole('row', { name: new RegExp(ownerEmail) }).waitFor();
    await screenshot(admin.page, 'people-admin-account-desktop');
    assertNoErrors(admin);
    await admin.close();

    // The owner opens the mailed link in a fresh browser: account, email, name and password.
    const ownerMail = await inbox.next(ownerEmail);
    const ownerLink = linkIn(ownerMail, '/console/accept-invitation#token=');
    assert.ok(ownerLink.startsWith(`${pages.server.origin}/console/accept-invitation#token=`));
    const owner = await pages.open();
    await openLink(owner, ownerLink);
    await expectHeading(owner.page, 'Join Nok');
    await owner.page.getByText('You are invited to Chiang Mai Bakery as Owner').waitFor();
    assert.equal(await owner.page.getByLabel('Email').inputValue(), ownerEmail);
    await owner.page.getByLabel(/^Your name/).fill('Kanya Owner');
    await owner.page.getByLabel(/^Choose a password/).fill(CONSOLE_PASSWORD);
    await owner.page.getByLabel(/^Type the password again/).fill(CONSOLE_PASSWORD);
    await screenshot(owner.page, 'accept-invitation-desktop');
    await owner.page.setViewportSize(PHONE);
    await screenshot(owner.page, 'accept-invitation-phone');
    await owner.page.getByRole('button', { name: 'Join and sign in' }).click();
    await owner.page.waitForURL(/\/console\/dashboard$/);

    // The owner invites a member from the users page.
    await owner.page.setViewportSize({ width: 1280, height: 800 });
    await owner.page.goto('/console/users');
    await expectHeading(owner.page, 'Users');
    const invite = owner.page.getByRole('region', { name: 'Invite someone' });
    await invite.getByLabel(/^Email/).fill(memberEmail);
    await invite.getByLabel(/^Name/).fill('Niran Member');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const pending = owner.page.getByRole('region', { name: 'Pending invitations' });
    await pending.getByRole('row', { name: new RegExp(memberEmail) }).waitFor();
    await screenshot(owner.page, 'users-invited-desktop');

    // The member accepts their link (the name offered is the one the owner gave).
    const member = await pages.open();
    await openLink(member, linkIn(await inbox.next(memberEmail), '#token='));
    await expectHeading(member.page, 'Join Nok');
    assert.equal(await member.page.getByLabel(/^Your name/).inputValue(), 'Niran Member');
    await member.page.getByLabel(/^Choose a password/).fill(CONSOLE_PASSWORD);
    await member.page.getByLabel(/^Type the password again/).fill(CONSOLE_PASSWORD);
    await member.page.getByRole('button', { name: 'Join and sign in' }).click();
    await member.page.waitForURL(/\/console\/dashboard$/);

    // The owner sees the member, and removes them: the member's session ends at once.
    await owner.page.reload();
    const lists = owner.page.getByRole('region', { name: 'People', exact: true });
    const row = lists.getByRole('row', { name: /Niran Member/ });
    await row.waitFor();
    await owner.page.getByText('No invitation is waiting.').waitFor();
    await screenshot(owner.page, 'users-desktop');
    await owner.page.setViewportSize(PHONE);
    await screenshot(owner.page, 'users-phone');
    await owner.page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole('button', { name: 'Remove Niran Member' }).click();
    const confirm = owner.page.getByRole('dialog', { name: 'Remove this person?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    const probe = await member.context.request.get(`${pages.server.origin}/console/api/session`);
    assert.equal(((await probe.json()) as { user: unknown }).user, null);

    // The used link now says so, clearly.
    await openLink(member, ownerLink);
    await member.page.getByText('This invitation has been accepted already.').waitFor();
    await screenshot(member.page, 'accept-invitation-used-desktop');

    assertNoErrors(owner);
    assertNoErrors(member, REFUSED);
    await owner.close();
    await member.close();
  });

  it('reads in Thai at phone width: the users page and the forgot-password page', async () => {
    const owner = await pages.open({
      role: 'owner',
      locale: 'th-TH',
      viewport: PHONE,
    });
    await owner.page.goto('/console/users');
    await expectHeading(owner.page, 'ผู้ใช้');
    await owner.page.getByRole('heading', { name: 'เชิญผู้ใช้' }).waitFor();
    await screenshot(owner.page, 'users-th-phone');
    assertNoErrors(owner);
    await owner.close();

    const guest = await pages.open({ locale: 'th-TH', viewport: PHONE });
    await guest.page.goto('/console/forgot-password');
    await expectHeading(guest.page, 'ลืมรหัสผ่าน?');
    await screenshot(guest.page, 'forgot-password-th-phone');
    assertNoErrors(guest);
    await guest.close();
  });

  it('someone who forgot their password asks for a link, sets a new one, and signs in with it', async () => {
    const email = 'somchai@example.co.th';
    const watched = await pages.open();
    const { page } = watched;
    await page.goto('/console/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectHeading(page, 'Forgot your password?');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByText(`If ${email} has a sign-in on Nok, a link is on its way.`).waitFor();
    await screenshot(page, 'forgot-password-desktop');

    const link = linkIn(await inbox.next(email), '/console/reset-password#token=');
    await openLink(watched, link);
    await expectHeading(page, 'Choose a new password');
    await page.getByText(`A new password for ${email}.`).waitFor();
    const newPassword = 'a fresh and long passphrase';
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Type the password again/).fill(newPassword);
    await screenshot(page, 'reset-password-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'reset-password-phone');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is set').waitFor();

    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/dashboard$/);

    // The link works once.
    await openLink(watched, link);
    await page.getByText('This link has been used already.').waitFor();
    await screenshot(page, 'reset-password-used-phone');
    assertNoErrors(watched, REFUSED);
    await watched.close();
  });
});
