// Issue 19 item 6: the inventory tabs follow the tabs pattern (one Tab stop, arrows between tabs).
// Keyboard only: nothing is clicked.
import { expect, test } from './fixtures';

test('inventory tabs: one Tab stop, arrows, Home and End', async ({ app }) => {
  await app.keyboard.press('Control+2');
  const tabs = app.getByRole('tablist', { name: 'Registry accounts' });
  const selected = tabs.getByRole('tab', { selected: true });
  const names = await tabs.getByRole('tab').allTextContents();
  expect(names.length).toBeGreaterThan(1);
  // Only the selected tab is in the Tab order.
  expect(await tabs.getByRole('tab').evaluateAll((els) => els.filter((el) => (el as HTMLElement).tabIndex >= 0).length)).toBe(1);
  await selected.focus();
  await app.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: names[1] })).toBeFocused();
  await expect(tabs.getByRole('tab', { name: names[1] })).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByRole('tabpanel')).toHaveAttribute(
    'aria-labelledby',
    (await tabs.getByRole('tab', { name: names[1] }).getAttribute('id'))!,
  );
  await app.keyboard.press('End');
  await expect(tabs.getByRole('tab', { name: names.at(-1) })).toBeFocused();
  await app.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: names[0] })).toBeFocused();
  await app.keyboard.press('ArrowLeft');
  await expect(tabs.getByRole('tab', { name: names.at(-1) })).toBeFocused();
  await app.keyboard.press('Home');
  await expect(tabs.getByRole('tab', { name: names[0] })).toBeFocused();
  await expect(tabs.getByRole('tab', { name: names[0] })).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the tab list for the panel's content, not the next tab.
  await app.keyboard.press('Tab');
  expect(await tabs.evaluate((el) => el.contains(document.activeElement))).toBe(false);
});
