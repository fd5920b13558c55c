/// <reference lib="dom" />
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The rules run: WCAG 2.1 A and AA (contrast among them) and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * What a person using a screen reader, a keyboard or weak eyesight would stumble on in the page
 * as it is now: axe-core's findings (run in the page, on the DOM and the styles Chromium
 * computed: names of controls, labels, ARIA, text contrast against AA's 4.5:1, …), then the
 * console's own layout rules from Chromium's accessibility tree: the landmarks a signed-in page
 * has (a banner, the navigation, the main content) and exactly one level-1 heading.
 */
export async function accessibilityProblems(
  page: Page,
  landmarks: readonly string[] = ['banner', 'navigation', 'main'],
): Promise<string[]> {
  return [...(await axeFindings(page)), ...(await layoutProblems(page, landmarks))];
}

async function axeFindings(page: Page): Promise<string[]> {
  // Evaluated through DevTools, so the console's Content-Security-Policy (no inline script)
  // does not apply to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    async (tags) =>
      (await window.axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations,
    AXE_TAGS,
  );
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id}: ${violation.help} — ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
    ),
  );
}

async function layoutProblems(page: Page, landmarks: readonly string[]): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const roles = new Set<string>();
  let topHeadings = 0;
  for (const node of nodes) {
    if (node.ignored) continue;
    const role = String(node.role?.value ?? '');
    roles.add(role);
    const level = node.properties?.find((property) => property.name === 'level')?.value.value;
    if (role === 'heading' && level === 1) topHeadings++;
  }
  const problems = landmarks
    .filter((landmark) => !roles.has(landmark))
    .map((landmark) => `no ${landmark} landmark`);
  if (topHeadings !== 1) problems.push(`${topHeadings} level-1 headings`);
  return problems;
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}
