import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  openPage,
  screenshot,
  startConsoleServer,
  type ConsoleServer,
} from '../support/console-browser.js';
import { pdfBytes, pngBytes } from '../support/documents.js';
import { testEngines } from '../support/engines.js';

async function heading(page: Page, text: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text, exact: true }).waitFor();
}

// One engine is enough for the pages; the API tests run both.
const engine = testEngines()[0]!;

describe(`sender names in the console (${engine.name})`, () => {
  let browser: Browser;
  let server: ConsoleServer;
  before(async () => {
    [browser, server] = await Promise.all([launchChromium(), startConsoleServer(engine)]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an owner requests a name with a PDF and a PNG, the admin asks for changes, the owner resubmits and sees it approved', async () => {
    const owner = await openPage(browser, server, { role: 'owner' });
    await owner.page.goto('/console/sender-names');
    await heading(owner.page, 'Sender names');
    await screenshot(owner.page, 'sender-names-desktop');

    await owner.page.getByRole('link', { name: 'Request a sender name' }).click();
    await heading(owner.page, 'Request a sender name');
    await owner.page.getByLabel(/^Sender name/).fill('MYSHOP');
    await owner.page.getByLabel(/^Sample message 1/).fill('Your code is 123456');
    await owner.page.getByLabel(/^Company registration number/).fill('0105551234567');
    await owner.page.locator('input[type=file]').setInputFiles([
      { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: pdfBytes() },
      { name: 'id-card.png', mimeType: 'image/png', buffer: pngBytes() },
    ]);
    await screenshot(owner.page, 'sender-names-request-form');
    await owner.page.getByRole('button', { name: 'Send for review' }).click();
    await heading(owner.page, 'MYSHOP');
    await owner.page.getByText('Waiting for review').first().waitFor();
    await owner.page.getByRole('link', { name: 'certificate.pdf' }).waitFor();
    await screenshot(owner.page, 'sender-names-request-detail');

    const admin = await openPage(browser, server, { role: 'admin' });
    await admin.page.goto('/console/admin/sender-review');
    await heading(admin.page, 'Sender review');
    await admin.page.getByRole('link', { name: 'MYSHOP' }).click();
    await heading(admin.page, 'MYSHOP');
    const link = admin.page.getByRole('link', { name: 'id-card.png' });
    const href = await link.getAttribute('href');
    const document = await admin.context.request.get(`${server.origin}${href}`);
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
    await heading(admin.page, 'Sender review');
    await screenshot(admin.page, 'admin-sender-review-desktop');
    assert.deepEqual(owner.errors, []);
    assert.deepEqual(admin.errors, []);
    await owner.close();
    await admin.close();
  });
});
