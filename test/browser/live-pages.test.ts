/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertNoErrors,
  consoleInChromium,
  expectHeading,
  screenshot,
} from '../support/console-browser.js';
import { pdfBytes } from '../support/documents.js';
import { accessibilityProblems } from '../support/accessibility.js';
import { pageEngine } from '../support/engines.js';

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');

describe(`open pages follow other people's changes (${engine.name})`, () => {
  const pages = consoleInChromium(engine);

  it("the admin's open review queue shows an owner's new request, and the owner's open sender names page shows the admin's approval, neither leaving the page", async () => {
    const admin = await pages.open({ role: 'admin' });
    const owner = await pages.open({ role: 'owner' });
    // Each page's timers run on a clock the test moves on: the next refresh is made to fall due
    // rather than waited for.
    await admin.page.clock.install();
    await owner.page.clock.install();

    await admin.page.goto('/console/admin/sender-review');
    await expectHeading(admin.page, 'Sender review');
    const queue = admin.page.getByRole('table', { name: 'Sender review' });
    await admin.page.getByText('No requests').waitFor();

    await owner.page.goto('/console/sender-names/new');
    await expectHeading(owner.page, 'Request a sender name');
    await owner.page.getByLabel(/^Sender name/).fill('LIVESHOP');
    await owner.page.getByLabel(/^Sample message 1/).fill('Your code is 123456');
    await owner.page.getByLabel(/^Company registration number/).fill('0105551234567');
    await owner.page
      .locator('input[type=file]')
      .setInputFiles([
        { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: pdfBytes() },
      ]);
    await owner.page.getByRole('button', { name: 'Send for review' }).click();
    await expectHeading(owner.page, 'LIVESHOP');

    // The queue asks again within 15 s of the request.
    await admin.page.clock.runFor(15_000);
    await queue.getByRole('link', { name: 'LIVESHOP' }).waitFor();

    await owner.page.getByRole('link', { name: /^← Sender names/ }).click();
    await expectHeading(owner.page, 'Sender names');
    const requests = owner.page.getByRole('table', { name: 'Requests' });
    await requests.getByText('Waiting for review').waitFor();
    const names = owner.page.getByRole('table', { name: 'Your sender names' });
    const approved = names.getByRole('row').filter({ hasText: 'LIVESHOP' }).getByText('Approved');
    assert.equal(await approved.count(), 0);

    await queue.getByRole('link', { name: 'LIVESHOP' }).click();
    await expectHeading(admin.page, 'LIVESHOP');
    await admin.page.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByRole('heading', { name: 'The sender' }).waitFor();

    // The owner's page, left open, asks again within 15 s of the approval.
    await owner.page.clock.runFor(15_000);
    await approved.waitFor();
    await requests.getByText('Approved').waitFor();
    await screenshot(owner.page, 'sender-names-approved-live');
    assert.deepEqual(await accessibilityProblems(owner.page), []);
    assertNoErrors(owner);
    assertNoErrors(admin);
    await owner.close();
    await admin.close();
  });

  it('an owner coming back to the console window sees the template a member saved meanwhile', async () => {
    // Templates are read again when the console comes back into use, and on no interval.
    const owner = await pages.open({ role: 'owner' });
    await owner.page.goto('/console/templates');
    await expectHeading(owner.page, 'Templates');
    await owner.page.getByText('No templates yet.').waitFor();

    const member = await pages.open({ role: 'member' });
    await member.page.goto('/console/templates');
    await expectHeading(member.page, 'Templates');
    await member.page.getByLabel(/^Name/).fill('Delivery code');
    await member.page.getByLabel(/^Message/).fill('Your code is {{code}}');
    await member.page.getByRole('button', { name: 'Save template' }).click();
    await member.page.getByRole('button', { name: /^Delivery code/ }).waitFor();

    // What the browser tells the page when its window is focused again after another window
    // (headless Chromium, with no window manager, never moves focus between windows itself).
    await owner.page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
    await owner.page.getByRole('button', { name: /^Delivery code/ }).waitFor();
    assertNoErrors(owner);
    assertNoErrors(member);
    await owner.close();
    await member.close();
  });
});
