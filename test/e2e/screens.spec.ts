// A walk through every screen with the keyboard shortcuts, the theme setting, and a screenshot of
// each main screen in the light and dark theme.
import { expect, screenshotBothThemes, test } from './fixtures';

test('every screen by shortcut, with its content, in both themes', async ({ app }) => {
  await app.keyboard.press('Control+2');
  await expect(app.getByRole('heading', { level: 1, name: 'Inventories' })).toBeVisible();
  await expect(app.getByRole('tab', { name: 'Buffer' })).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByRole('table', { name: 'Buffer credits' }).or(app.getByText(/holds no credits/))).toBeVisible();
  await expect(app.getByRole('definition').first()).toHaveText(/ t$/);
  await screenshotBothThemes(app, 'inventories');
  await app.getByRole('tab', { name: 'Organization' }).click();
  await expect(app.getByRole('tab', { name: 'Organization' })).toHaveAttribute('aria-selected', 'true');

  await app.keyboard.press('Control+3');
  await expect(app.getByRole('heading', { level: 1, name: 'Retirements' })).toBeVisible();
  const firstClaimed = app.getByRole('table', { name: 'Retirements' }).getByRole('row').filter({ hasText: 'Claimed' }).first();
  await firstClaimed.click();
  await expect(
    app.getByRole('complementary', { name: 'Retirement details' }).getByRole('button', { name: 'Download certificate (PDF)' }),
  ).toBeVisible();
  await screenshotBothThemes(app, 'retirements');
  // Ctrl+F focuses the screen's search field.
  await app.keyboard.press('Control+f');
  await expect(app.getByRole('searchbox', { name: 'Search retirements' })).toBeFocused();

  await app.keyboard.press('Control+4');
  await expect(app.getByRole('heading', { level: 1, name: 'Warehouse' })).toBeVisible();
  await expect(app.getByRole('table', { name: 'Warehouse credits' })).toBeVisible();

  await app.keyboard.press('Control+5');
  await expect(app.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await app.getByRole('table', { name: 'Organizations' }).getByRole('button').first().click();
  await expect(app.getByRole('complementary', { name: 'Organization details' })).toContainText('Registration number');
  await screenshotBothThemes(app, 'organizations');

  await app.keyboard.press('Control+6');
  await expect(app.getByRole('heading', { level: 1, name: 'Connections & settings' })).toBeVisible();
  const connection = app.getByRole('region', { name: /^Connection / }).first();
  await expect(connection).toContainText('In use');
  await expect(connection.getByRole('table', { name: /^Installations of / })).toContainText('Organization warehouse: can change');
  await screenshotBothThemes(app, 'settings');

  // The theme setting is applied at once, whatever the system's scheme, and kept by the desk across a reload.
  const LIGHT_BG = 'rgb(245, 246, 244)';
  const DARK_BG = 'rgb(18, 23, 21)';
  const background = () => app.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await app.emulateMedia({ colorScheme: 'light' });
  await expect.poll(background).toBe(LIGHT_BG);
  await app.getByRole('radio', { name: 'Dark' }).check();
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(background).toBe(DARK_BG);
  await app.reload();
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(background).toBe(DARK_BG);
  await app.keyboard.press('Control+6');
  await expect(app.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await app.emulateMedia({ colorScheme: 'dark' });
  await app.getByRole('radio', { name: 'Light' }).check();
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(background).toBe(LIGHT_BG);
  // Same as system follows the system's scheme as it changes.
  await app.getByRole('radio', { name: 'Same as system' }).check();
  await expect.poll(background).toBe(DARK_BG);
  await app.emulateMedia({ colorScheme: 'light' });
  await expect.poll(background).toBe(LIGHT_BG);
  await app.emulateMedia({ colorScheme: null });
});
