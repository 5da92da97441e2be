// Issue 19 item 6 (getting around): a skip link to the main content is the first Tab stop, and
// Ctrl+1–6 move focus to the new screen's heading and name the screen in the window title. Keyboard only.
import { expect, test } from './fixtures';

const SCREENS = ['Projects', 'Inventories', 'Retirements', 'Warehouse', 'Organizations', 'Connections & settings'];

test('skip link, and Ctrl+1–6 focus the screen heading and set the title', async ({ app }) => {
  await expect(app).toHaveTitle('Projects · Registry Desk');

  await app.keyboard.press('Tab');
  const skip = app.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await app.keyboard.press('Enter');
  await expect(app.locator('main#main-content')).toBeFocused();
  // The next Tab stop is inside the main content, past the sidebar.
  await app.keyboard.press('Tab');
  expect(await app.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);

  for (const [index, name] of [...SCREENS.entries()].reverse()) {
    await app.keyboard.press(`Control+${index + 1}`);
    await expect(app.getByRole('heading', { level: 1, name })).toBeFocused();
    await expect(app).toHaveTitle(`${name} · Registry Desk`);
  }
});
