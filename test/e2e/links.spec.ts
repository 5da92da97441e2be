// Links inside the desk open the desk's own pages; links to the outside are only real web pages.
// An organization's "Registry page" once opened the registry's raw JSON (a 401 body).
import type { Page } from '@playwright/test';
import { expect, screenshotBothThemes, test } from './fixtures';

/**
 * Every link the page shows but in-page ones (the skip link's `#main-content` moves focus within
 * this page): none may lead to this machine or to the registry's API.
 */
async function outsideLinks(page: Page): Promise<string[]> {
  return page.locator('a[href]:not([href^="#"])').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
}

function expectOnlyWebPages(hrefs: string[], registryUrl: string) {
  for (const href of hrefs) {
    const url = new URL(href);
    expect(url.protocol, href).toMatch(/^https?:$/);
    expect(url.hostname, href).not.toMatch(/^(127\.|localhost$|\[::1\]$)/);
    expect(href.startsWith(registryUrl), href).toBe(false);
  }
}

test('organization and retirement links open desk pages; outside links are web pages', async ({ app, desk }) => {
  // The embedded registry and the desk's own host are both on loopback, which expectOnlyWebPages refuses.
  const registryUrl = new URL(desk.launchUrl).origin;

  // An organization's details: no link to its API record, and every link a web page.
  await app.keyboard.press('Control+5');
  await app.getByRole('table', { name: 'Organizations' }).getByRole('button').first().click();
  const organization = app.getByRole('complementary', { name: 'Organization details' });
  await expect(organization).toContainText('Registry id');
  await expect(organization.locator('a[href*="/v1/organizations/"]')).toHaveCount(0);
  await expect(organization.getByText('Registry page')).toHaveCount(0);
  expectOnlyWebPages(await outsideLinks(app), registryUrl);

  // A claimed retirement: "Retired by" opens the desk's own organization page.
  await app.keyboard.press('Control+3');
  await app.getByRole('table', { name: 'Retirements' }).getByRole('row').filter({ hasText: 'Claimed' }).first().click();
  const retirement = app.getByRole('complementary', { name: 'Retirement details' });
  const ownerButton = retirement.locator('dt:text-is("Retired by") + dd').getByRole('button');
  await expect(ownerButton).toBeVisible();
  const ownerName = (await ownerButton.textContent())!;
  expectOnlyWebPages(await outsideLinks(app), registryUrl);
  await ownerButton.click();
  await expect(app.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await expect(app.getByRole('complementary', { name: 'Organization details' }).getByRole('heading', { level: 2 })).toHaveText(ownerName);
  await screenshotBothThemes(app, 'links-organization-page');

  // A project page: its documents and websites are web pages, never this machine or the API.
  await app.keyboard.press('Control+1');
  await app.getByRole('table', { name: 'Projects' }).locator('.table-scroll [role="row"]').first().click();
  await expect(app.getByRole('region', { name: 'Credits' })).toBeVisible();
  expectOnlyWebPages(await outsideLinks(app), registryUrl);
});
