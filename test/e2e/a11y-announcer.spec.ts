// Issue 19 item 5: one polite announcer (a single live region, throttled) says what happens away from
// focus: a Review refused (and focus on the first invalid field), a reservation made or cancelled, one
// minute left, the expiry, and sync progress (read at most once a second, not on every event).
// Keyboard only: controls are focused and pressed with keys, never clicked.
import type { Locator, Page } from '@playwright/test';
import { expect, nextAppEvent, test } from './fixtures';

async function press(page: Page, locator: Locator, key = 'Enter') {
  await locator.focus();
  await page.keyboard.press(key);
}

/** Starts recording every message the announcer shows, with when (ms). */
async function listen(page: Page) {
  await page.evaluate(() => {
    const region = document.querySelector('[data-announcer]')!;
    const heard: Array<{ text: string; at: number }> = [];
    (window as unknown as { heard: typeof heard }).heard = heard;
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text) heard.push({ text, at: performance.now() });
    }).observe(region, { childList: true, subtree: true, characterData: true });
  });
}

async function heard(page: Page): Promise<Array<{ text: string; at: number }>> {
  return page.evaluate(() => (window as unknown as { heard: Array<{ text: string; at: number }> }).heard);
}

const said = (page: Page) => async () => (await heard(page)).map((m) => m.text);

test.use({ deskOptions: { registry: 'remote', scale: 1 } });

test('one throttled announcer: review problems, reserved, cancelled, one minute left, expired, sync', async ({ app, desk }) => {
  await listen(app);
  await app.keyboard.press('Control+4');
  const credits = app.getByRole('table', { name: 'Warehouse credits' });
  const firstRow = credits.getByRole('row').nth(1);
  const serialization = (await firstRow.getByRole('cell').nth(1).textContent())!;
  const reserveButton = firstRow.getByRole('button', { name: /^Reserve/ });
  const reservations = app.getByRole('table', { name: 'Reservations' });

  const reserve = async (amount: string) => {
    await press(app, reserveButton);
    await app.keyboard.type(amount);
    await app.keyboard.press('Enter');
    await expect
      .poll(said(app))
      .toContain(`Reserved ${amount} t of ${serialization} for 10 minutes: it is highlighted under Reservations.`);
    return reservations.getByRole('row', { name: `Reservation of ${amount} t of ${serialization}` });
  };

  // Reserving is said; Review with nothing filled in focuses the first invalid field and says why.
  const first = await reserve('1.5');
  await press(app, first.getByRole('button', { name: 'Finish…' }));
  const finish = app.getByRole('dialog', { name: /Finish reservation/ });
  await press(app, finish.getByRole('button', { name: 'Review' }));
  await expect(finish.getByRole('radio', { name: 'Transfer', exact: true })).toBeFocused();
  await expect
    .poll(said(app))
    .toContain(
      'Not ready for review: 2 fields need attention. Choose Transfer, or Transfer and retire. Choose the organization that receives the credits.',
    );
  // Transfer chosen, the receiver is now the first invalid field.
  await app.keyboard.press('Space');
  await press(app, finish.getByRole('button', { name: 'Review' }));
  await expect(finish.getByLabel('Receiving organization')).toBeFocused();
  await expect
    .poll(said(app))
    .toContain('Not ready for review: 1 field needs attention. Choose the organization that receives the credits.');
  await app.keyboard.press('Escape');
  await expect(finish).toBeHidden();

  // Cancelling is said.
  await press(app, first.getByRole('button', { name: 'Cancel reservation' }));
  await press(app, first.getByRole('button', { name: 'Yes, cancel it' }));
  await expect.poll(said(app)).toContain(`Reservation of 1.5 t of ${serialization} cancelled: the credits went back to the warehouse.`);

  // One minute left, then the expiry, each said once (the registry's clock moves; the desk learns it
  // from its answers: two reads of the warehouse and a sync).
  const second = await reserve('2');
  await expect(second).toHaveAttribute('data-phase', 'active');
  const learnTheClock = async () => {
    for (let i = 0; i < 2; i++) {
      const loaded = nextAppEvent(app, 'desk:warehouse-loaded');
      await press(app, app.getByRole('button', { name: 'Refresh' }));
      await loaded;
    }
    const synced = nextAppEvent(app, 'desk:sync-finished');
    await app.keyboard.press('Control+r');
    await synced;
  };
  await desk.registry!.advanceClock(9 * 60_000 + 5_000);
  await learnTheClock();
  const oneMinute = `Your reservation of 2 t of ${serialization} ends in 1 minute: finish it in Warehouse before then.`;
  await expect.poll(said(app)).toContain(oneMinute);
  await desk.registry!.advanceClock(2 * 60_000);
  await learnTheClock();
  const expired = `Your reservation of 2 t of ${serialization} has expired: the credits went back to the warehouse. Reserve them again to finish.`;
  await expect.poll(said(app)).toContain(expired);
  expect((await said(app)()).filter((t) => t === oneMinute)).toHaveLength(1);
  expect((await said(app)()).filter((t) => t === expired)).toHaveLength(1);

  // A sync's progress: read at most once a second, whatever the number of events, then its end.
  const before = (await heard(app)).length;
  const synced = nextAppEvent(app, 'desk:sync-finished');
  await press(app, app.getByRole('button', { name: 'Sync now' }));
  await synced;
  // (said since this sync began: the clock moves above ended syncs of their own with the same words)
  const saidSince = async () => (await heard(app)).slice(before).map((m) => m.text);
  await expect.poll(saidSince).toContain('Sync finished.');
  const messages = (await heard(app)).slice(before);
  for (let i = 1; i < messages.length; i++) expect(messages[i]!.at - messages[i - 1]!.at).toBeGreaterThanOrEqual(950);
  expect(messages.at(-1)!.text).toBe('Sync finished.');
  // The only live region is the announcer (besides those of a dialog or a field's own feedback).
  await expect(app.getByRole('region', { name: 'Sync status' }).locator('[aria-live], [role="status"]')).toHaveCount(0);
});
