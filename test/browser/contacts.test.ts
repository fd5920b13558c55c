import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consoleInChromium, expectHeading, PHONE, screenshot } from '../support/console-browser.js';
import { pageEngine } from '../support/engines.js';

/** A CSV of `count` numbers, a header, a few bad lines and a repeat. */
function groupFile(count: number): Buffer {
  const lines = ['phone,name'];
  for (let i = 0; i < count; i++) lines.push(`08${String(10_000_000 + i)},Customer ${i}`);
  lines.push('not-a-number,x', '081234567,short', `08${String(10_000_000)},again`);
  return Buffer.from(lines.join('\n'));
}

// One engine is enough for the pages; the API tests run both.
const engine = pageEngine('sqlite');

describe(`contact groups, templates and the blocklist in the console (${engine.name})`, () => {
  const pages = consoleInChromium(engine);

  it('a member creates a group, imports 10,000 numbers with a progress bar and a report, searches and removes a member', async () => {
    const { page, errors } = await pages.open({ role: 'member' });
    await page.goto('/console/contact-groups');
    await expectHeading(page, 'Contact groups');
    await page.getByLabel('New group name').fill('Customers');
    await page.getByRole('button', { name: 'Create group' }).click();
    await expectHeading(page, 'Customers');
    await page.getByTestId('import-file').click();
    await page.locator('input[type=file]').setInputFiles({
      name: 'customers.csv',
      mimeType: 'text/csv',
      buffer: groupFile(10_000),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByTestId('import-report');
    await report.waitFor();
    await report.getByText('Added: 10,000').waitFor();
    await report.getByText('Repeated in the file: 1').waitFor();
    await report.getByText('Rejected lines: 2').waitFor();
    await report.getByRole('cell', { name: 'not-a-number' }).waitFor();
    await report.getByText('Wrong length (66 and 9 digits, or 0 and 9 digits)').waitFor();
    await page.getByTestId('group-size').getByText('10,000 numbers').waitFor();
    await screenshot(page, 'contact-group-import');

    await page.getByLabel('Search by number').fill('0810000123');
    await page.getByTestId('members-total').getByText('1 number found').waitFor();
    await page.getByRole('button', { name: 'Remove 66810000123' }).click();
    await page.getByTestId('members-total').getByText('0 numbers found').waitFor();
    await page.getByTestId('group-size').getByText('9,999 numbers').waitFor();

    await page.goto('/console/contact-groups');
    await page.getByRole('link', { name: 'Customers' }).waitFor();
    await page.getByRole('cell', { name: '9,999' }).waitFor();
    await screenshot(page, 'contact-groups-list');
    assert.deepEqual(errors, []);
  });

  it('a member writes a Thai template and sees its placeholders and the live preview', async () => {
    const { page, errors } = await pages.open({ role: 'member' });
    await page.goto('/console/templates');
    await expectHeading(page, 'Templates');
    await page.getByLabel(/^Name/).fill('รหัสผ่านครั้งเดียว');
    await page.getByLabel(/^Message/).fill('สวัสดีคุณ {{name}} รหัสของคุณคือ {{code}}');
    const placeholders = page.getByTestId('template-placeholders');
    await placeholders.getByText('{{name}}').waitFor();
    await placeholders.getByText('{{code}}').waitFor();
    await page.getByLabel('Value of name for the preview').fill('สมชาย');
    await page.getByLabel('Value of code for the preview').fill('123456');
    await page
      .getByTestId('template-preview')
      .getByText('สวัสดีคุณ สมชาย รหัสของคุณคือ 123456')
      .waitFor();
    await page
      .getByTestId('template-counts')
      .getByText(/1 part/)
      .waitFor();
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('button', { name: /รหัสผ่านครั้งเดียว/ }).waitFor();
    await screenshot(page, 'templates');
    const saved = await pages.server.harness.store.listTemplates(
      (await pages.server.harness.store.findUserByEmail('mali@example.co.th'))!.accountId!,
    );
    assert.deepEqual(
      saved.map((t) => t.body),
      ['สวัสดีคุณ {{name}} รหัสของคุณคือ {{code}}'],
    );
    assert.deepEqual(errors, []);
  });

  it('a member blocks numbers and sees the platform-wide ones read-only; an admin changes those', async () => {
    const admin = await pages.open({ role: 'admin' });
    await admin.page.goto('/console/admin/blocklist');
    await expectHeading(admin.page, 'Platform blocklist');
    await admin.page.getByLabel(/^Numbers/).fill('0870000001');
    await admin.page.getByRole('button', { name: 'Block 1' }).click();
    await admin.page.getByRole('cell', { name: '66870000001', exact: true }).waitFor();
    await screenshot(admin.page, 'admin-blocklist');

    const { page, errors } = await pages.open({ role: 'member' });
    await page.goto('/console/blocklist');
    await expectHeading(page, 'Blocklist');
    await page.getByLabel(/^Numbers/).fill('0811111111, 0811111112\n0822222222');
    await page.getByRole('button', { name: 'Block 3' }).click();
    await page.getByRole('cell', { name: '66822222222', exact: true }).waitFor();
    await page.getByLabel('Search by number').fill('0811');
    await page.getByText('2 numbers').waitFor();
    await page.getByRole('button', { name: 'Unblock 66811111111' }).click();
    await page.getByText('1 number', { exact: true }).waitFor();
    await screenshot(page, 'blocklist');
    await page.getByRole('tab', { name: 'Platform-wide' }).click();
    await page.getByRole('cell', { name: '66870000001', exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Unblock 66870000001' }).count(), 0);
    await screenshot(page, 'blocklist-platform');
    assert.deepEqual(errors, []);
  });

  it('the pages in Thai at phone width', async () => {
    const { page, errors } = await pages.open({
      role: 'owner',
      locale: 'th-TH',
      viewport: PHONE,
    });
    await page.goto('/console/contact-groups');
    await expectHeading(page, 'กลุ่มรายชื่อ');
    await page.getByRole('link', { name: 'Customers' }).click();
    await expectHeading(page, 'Customers');
    await page.getByTestId('group-size').getByText('9,999 เบอร์').waitFor();
    await screenshot(page, 'contact-group-thai-phone');
    await page.goto('/console/templates');
    await expectHeading(page, 'แม่แบบข้อความ');
    await page.getByRole('button', { name: /รหัสผ่านครั้งเดียว/ }).click();
    await page.getByLabel('ค่าของ name สำหรับดูตัวอย่าง').fill('มะลิ');
    await page
      .getByTestId('template-preview')
      .getByText(/สวัสดีคุณ มะลิ/)
      .waitFor();
    await screenshot(page, 'templates-thai-phone');
    await page.goto('/console/blocklist');
    await expectHeading(page, 'รายการเบอร์ห้ามส่ง');
    await page.getByRole('cell', { name: '66822222222', exact: true }).waitFor();
    await screenshot(page, 'blocklist-thai-phone');
    assert.deepEqual(errors, []);
  });
  it('takes a template body of 1,000 emoji whole, as the server counts it, and says at the field when it is longer', async () => {
    const { page, errors } = await pages.open({ role: 'member' });
    await page.goto('/console/templates');
    await expectHeading(page, 'Templates');
    // 1,000 characters, the most the server takes, and 2,000 UTF-16 units: a maxLength of
    // 1,000 would have kept half of them.
    const body = '🙂'.repeat(999) + '🎉';
    await page.getByLabel(/^Name/).fill('Smiles');
    const field = page.getByLabel(/^Message/);
    await field.fill(body + '!');
    await page.getByText('At most 1,000 characters').waitFor();
    await screenshot(page, 'template-too-long');
    await field.fill(body);
    await page.getByText('At most 1,000 characters').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('button', { name: /Smiles/ }).waitFor();
    const accountId = (await pages.server.harness.store.findUserByEmail('mali@example.co.th'))!
      .accountId!;
    const saved = (await pages.server.harness.store.listTemplates(accountId)).find(
      (t) => t.name === 'Smiles',
    );
    assert.equal(saved?.body, body);
    assert.deepEqual(errors, []);
  });
});
