import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CONSOLE_PASSWORD,
  CONSOLE_PEOPLE,
  consoleInChromium,
  expectHeading,
  PHONE,
  screenshot,
} from '../support/console-browser.js';
import { createConsoleUser } from '../support/console-session.js';
import { pdfBytes, pngBytes } from '../support/documents.js';
import { pageEngine } from '../support/engines.js';

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');

describe(`sender names in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);

  it('an owner requests a name with a PDF and a PNG, the admin asks for changes, the owner resubmits and sees it approved', async () => {
    const owner = await pages.open({ role: 'owner' });
    await owner.page.goto('/console/sender-names');
    await expectHeading(owner.page, 'Sender names');
    await screenshot(owner.page, 'sender-names-desktop');

    await owner.page.getByRole('link', { name: 'Request a sender name' }).click();
    await expectHeading(owner.page, 'Request a sender name');
    await owner.page.getByLabel(/^Sender name/).fill('MYSHOP');
    await owner.page.getByLabel(/^Sample message 1/).fill('Your code is 123456');
    await owner.page.getByLabel(/^Company registration number/).fill('0105551234567');
    await owner.page.locator('input[type=file]').setInputFiles([
      { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: pdfBytes() },
      { name: 'id-card.png', mimeType: 'image/png', buffer: pngBytes() },
    ]);
    await screenshot(owner.page, 'sender-names-request-form');
    await owner.page.getByRole('button', { name: 'Send for review' }).click();
    await expectHeading(owner.page, 'MYSHOP');
    await owner.page.getByText('Waiting for review').first().waitFor();
    await owner.page.getByRole('link', { name: 'certificate.pdf' }).waitFor();
    await screenshot(owner.page, 'sender-names-request-detail');

    const admin = await pages.open({ role: 'admin' });
    await admin.page.goto('/console/admin/sender-review');
    await expectHeading(admin.page, 'Sender review');
    await admin.page.getByRole('link', { name: 'MYSHOP' }).click();
    await expectHeading(admin.page, 'MYSHOP');
    const link = admin.page.getByRole('link', { name: 'id-card.png' });
    const href = await link.getAttribute('href');
    const document = await admin.context.request.get(`${pages.server.origin}${href}`);
    assert.equal(document.status(), 200);
    assert.equal(document.headers()['content-type'], 'image/png');
    assert.match(document.headers()['content-disposition'] ?? '', /^attachment/);
    assert.equal(document.headers()['x-content-type-options'], 'nosniff');
    await screenshot(admin.page, 'admin-sender-review-request');
    await admin.page
      .getByLabel(/^Note to the owner/)
      .fill('Send a certificate under six months old');
    await admin.page.getByRole('button', { name: 'Ask for changes' }).click();
    await admin.page.getByText('Changes requested').first().waitFor();

    await owner.page.reload();
    await owner.page.getByText('Send a certificate under six months old').first().waitFor();
    await owner.page
      .locator('input[type=file]')
      .setInputFiles([
        { name: 'new-certificate.pdf', mimeType: 'application/pdf', buffer: pdfBytes('Renewed') },
      ]);
    await screenshot(owner.page, 'sender-names-resubmit');
    await owner.page.getByRole('button', { name: 'Resubmit for review' }).click();
    await owner.page.getByRole('link', { name: 'new-certificate.pdf' }).waitFor();

    await admin.page.reload();
    await admin.page.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByRole('heading', { name: 'The sender' }).waitFor();
    await screenshot(admin.page, 'admin-sender-review-approved');

    await owner.page.goto('/console/sender-names');
    await owner.page
      .getByRole('table', { name: 'Your sender names' })
      .getByText('MYSHOP')
      .waitFor();
    await owner.page.getByText('Approved').first().waitFor();
    await screenshot(owner.page, 'sender-names-approved');
    await admin.page.goto('/console/admin/sender-review');
    await expectHeading(admin.page, 'Sender review');
    await screenshot(admin.page, 'admin-sender-review-desktop');
    assert.deepEqual(owner.errors, []);
    assert.deepEqual(admin.errors, []);
    await owner.close();
    await admin.close();
  });
  it('an admin suspends a sender made without a request (its /api/v2 send is refused), reinstates it, and shares it with another account, which then lists it', async () => {
    const h = pages.server.harness;
    const { accountId } = (await h.store.findUserByEmail(CONSOLE_PEOPLE.owner.email))!;
    // As `nok admin sender create` makes one: approved, with no request behind it.
    await h.sender(accountId!, 'NOKCLI');
    await h.store.transaction((tx) =>
      tx.changeBalance({
        accountId: accountId!,
        delta: 10,
        reason: 'top-up',
        nowMs: h.clock.now(),
      }),
    );
    const { key } = await h.key(accountId!);
    const send = () =>
      h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key,
        payload: { sender: 'NOKCLI', content: 'Hello', msisdns: ['0812345678'] },
      });
    const baanSuan = await h.account({ name: 'Baan Suan Co.' });
    const lek = { email: 'lek@baansuan.example', name: 'Lek Baan Suan' };
    await createConsoleUser(h, 'owner', { ...lek, account: baanSuan });

    const admin = await pages.open({ role: 'admin' });
    const { page } = admin;
    await page.goto('/console');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Senders', exact: true })
      .click();
    await expectHeading(page, 'Senders');
    await page.getByLabel('Search by name').fill('nokcli');
    const row = page.getByRole('row').filter({ hasText: 'NOKCLI' });
    await row.getByText('Approved').waitFor();
    const account = (await h.store.findAccount(accountId!))!;
    await row.getByRole('link', { name: account.name }).waitFor();

    await row.getByRole('button', { name: 'Suspend NOKCLI' }).click();
    await row.getByText('Suspended').waitFor();
    const refused = await send();
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().code, 'SENDER_NOT_APPROVED');
    await screenshot(page, 'admin-senders-suspended');

    await row.getByRole('button', { name: 'Reinstate NOKCLI' }).click();
    await row.getByText('Approved').waitFor();
    assert.equal((await send()).statusCode, 200);

    await row.getByRole('button', { name: 'Share NOKCLI' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share NOKCLI' });
    await dialog.getByLabel('Account to share with').fill('baan');
    await page.getByRole('option', { name: `Baan Suan Co. (#${baanSuan.id})` }).click();
    await screenshot(page, 'admin-senders-share');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText('Baan Suan Co.').waitFor();
    await screenshot(page, 'admin-senders-desktop');

    // The account it was shared with lists it, and may send from it.
    const theirs = await pages.open();
    await theirs.page.goto('/console/sign-in');
    await theirs.page.getByLabel(/^Email/).fill(lek.email);
    await theirs.page.getByLabel(/^Password/).fill(CONSOLE_PASSWORD);
    await theirs.page.getByRole('button', { name: 'Sign in' }).click();
    await expectHeading(theirs.page, 'Dashboard');
    await theirs.page.goto('/console/sender-names');
    const listed = theirs.page
      .getByRole('table', { name: 'Your sender names' })
      .getByRole('row')
      .filter({ hasText: 'NOKCLI' });
    await listed.getByText('Shared with you').waitFor();
    await listed.getByText('Approved').waitFor();
    await screenshot(theirs.page, 'sender-names-shared-with-you');

    // Taken back, it leaves their list.
    await row.getByRole('button', { name: 'Stop sharing NOKCLI with Baan Suan Co.' }).click();
    await row.getByText('Not shared').waitFor();
    await theirs.page.reload();
    await theirs.page.getByText(/^No sender names yet/).waitFor();

    // No sender name holds Thai letters: said at the field, and not asked of the server (which
    // would answer 400), however the text changes while the search waits for typing to pause.
    const search = page.getByLabel('Search by name');
    await search.fill('นกแอร์');
    await page.getByText('Sender names hold English letters, digits and symbols only.').waitFor();
    await search.fill('nokcli');
    await page
      .getByText('Sender names hold English letters, digits and symbols only.')
      .waitFor({ state: 'detached' });
    await row.getByText('Not shared').waitFor();

    const thai = await pages.open({
      role: 'admin',
      locale: 'th-TH',
      viewport: PHONE,
    });
    await thai.page.goto('/console/admin/senders');
    await expectHeading(thai.page, 'ชื่อผู้ส่งทั้งหมด');
    // At phone width each sender is a card with its actions in sight.
    const card = thai.page.getByRole('region', { name: 'NOKCLI' });
    await card.getByRole('button', { name: 'ระงับ NOKCLI' }).waitFor();
    await screenshot(thai.page, 'admin-senders-th-phone');

    for (const watched of [admin, theirs, thai]) {
      assert.deepEqual(watched.errors, []);
      await watched.close();
    }
  });
});
