// Issue 19 item 7: axe-core (WCAG 2.1 AA and best practice) on every screen, light and dark: no
// critical or serious violation. Screens are reached with their Ctrl+1–6 shortcuts, the back office's
// from its group in the sidebar (as the embedded registry's local administrator, so every action shows).
import type { Page } from '@playwright/test';
import { axeOn } from './axe';
import { expect, test } from './fixtures';

const SCREENS = ['Projects', 'Inventories', 'Retirements', 'Warehouse', 'Organizations', 'Settings'];
/** The back office's screens: the sidebar button, then the screen's heading. */
const BACK_OFFICE = [
  ['Organizations (operator)', 'Organizations (operator)'],
  ['Operators', 'Operators'],
  ['Projects (operator)', 'Projects (operator)'],
  ['Issuance', 'Issuance'],
  ['Transfers', 'Transfers and cancellations'],
  ['Credit history', 'Credit history'],
  ['Apps and installations', 'Apps and installations'],
  ['Audit log', 'Audit log'],
] as const;

/**
 * The dark scheme changes colours only (app.css: every colour is light-dark(…), nothing else
 * follows the scheme), so in it only the rules that read colours are run again: the full set on
 * every screen twice was a third of this spec's time.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function seriousViolations(page: Page, colorScheme: 'light' | 'dark'): Promise<string[]> {
  await page.emulateMedia({ colorScheme });
  const axe = axeOn(page);
  const results = await (colorScheme === 'dark' ? axe.withRules(COLOUR_RULES) : axe).analyze();
  return results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('every screen, light and dark, has no critical or serious axe violation', async ({ app }) => {
  // axe walks every node of every screen twice: about 2 minutes alone on 2 cores, and more when the
  // other end-to-end tests run beside it (3.2 minutes once in CI)
  test.setTimeout(360_000);
  const found: string[] = [];
  for (const [index, name] of SCREENS.entries()) {
    await app.keyboard.press(`Control+${index + 1}`);
    await expect(app.getByRole('heading', { level: 1, name })).toBeVisible();
    // Wait for the screen's content rather than its loading state.
    await expect(app.locator('.loading, [aria-busy="true"]')).toHaveCount(0);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const v of await seriousViolations(app, colorScheme)) found.push(`${name} ${colorScheme}: ${v}`);
    }
    await app.emulateMedia({ colorScheme: null });
  }
  for (const [button, heading] of BACK_OFFICE) {
    await app.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: button, exact: true }).press('Enter');
    await expect(app.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expect(app.locator('.loading, [aria-busy="true"]')).toHaveCount(0);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const v of await seriousViolations(app, colorScheme)) found.push(`Back office ${heading} ${colorScheme}: ${v}`);
    }
    await app.emulateMedia({ colorScheme: null });
  }
  // An empty result: the message sits beside the table, not inside role="table".
  await app.keyboard.press('Control+1');
  await app.keyboard.press('Control+f');
  await app.keyboard.type('zzqqxx no such project');
  await expect(app.getByText('No projects match')).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const v of await seriousViolations(app, colorScheme)) found.push(`Projects, none match, ${colorScheme}: ${v}`);
  }
  expect(found).toEqual([]);
});
