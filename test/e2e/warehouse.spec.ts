// The warehouse against a separate registry process (so its clock can be moved): reserve with the
// amount checked exactly, a live countdown, finish as transfer-and-retire with a confirmation, the
// outcome followed to the end, the retirement and its PDF certificate; cancel; expiry by the clock.
import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, nextAppEvent, screenshotBothThemes, test, waitForSyncDone } from './fixtures';
import { downloadText } from './helpers';

test.use({ deskOptions: { registry: 'remote', scale: 1 } });

async function openWarehouse(page: Page) {
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { level: 1, name: 'Warehouse' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Warehouse credits' })).toBeVisible();
}

/** Reserves `amount` t of the first credit with enough available; returns its serialization. */
async function reserveFirstCredit(page: Page, amount: string): Promise<{ serialization: string; availableBefore: string }> {
  const row = page.getByRole('table', { name: 'Warehouse credits' }).getByRole('row').nth(1);
  const serialization = (await row.getByRole('cell').nth(1).textContent())!;
  const availableBefore = (await row.getByRole('cell').nth(3).textContent())!;
  await row.getByRole('button', { name: /^Reserve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Reserve credits' });
  await dialog.getByLabel('Amount to reserve (tonnes)').fill(amount);
  await dialog.getByRole('button', { name: 'Reserve' }).click();
  await expect(dialog).toBeHidden();
  return { serialization, availableBefore };
}

function reservationRow(page: Page, serialization: string, amount: string) {
  return page
    .getByRole('table', { name: 'Reservations' })
    .getByRole('row', { name: `Reservation of ${amount} t of ${serialization}` })
    .first();
}

test('reserve, watch the countdown, transfer and retire, then find the retirement and its certificate', async ({ app }) => {
  await openWarehouse(app);
  const credits = app.getByRole('table', { name: 'Warehouse credits' });
  const firstRow = credits.getByRole('row').nth(1);
  const available = Number((await firstRow.getByRole('cell').nth(3).textContent())!.replace(/[^\d.]/g, ''));

  // The amount is checked before anything is sent: too much, and finer than a gram.
  await firstRow.getByRole('button', { name: /^Reserve/ }).click();
  const reserveDialog = app.getByRole('dialog', { name: 'Reserve credits' });
  const amountInput = reserveDialog.getByLabel('Amount to reserve (tonnes)');
  await amountInput.fill(String(available + 1));
  await expect(reserveDialog.getByText(/^Only .* t are available\.$/)).toBeVisible();
  await amountInput.fill('0.0000001');
  await expect(reserveDialog.getByText(/at most 6 decimals/)).toBeVisible();
  await reserveDialog.getByRole('button', { name: 'Cancel' }).click();

  const { serialization } = await reserveFirstCredit(app, '1.25');
  const reservation = reservationRow(app, serialization, '1.25');
  await expect(reservation).toHaveAttribute('data-phase', 'active');
  const timer = reservation.getByRole('timer');
  await expect(timer).toHaveText(/^(09:\d\d|10:00) left$/);
  const firstReading = await timer.textContent();
  await expect(timer).not.toHaveText(firstReading!); // it ticks
  await screenshotBothThemes(app, 'warehouse');

  // Finish: transfer and retire, with a confirmation that says exactly what will happen.
  const beneficiary = `E2E Beneficiary ${Date.now()}`;
  await reservation.getByRole('button', { name: 'Finish…' }).click();
  const finish = app.getByRole('dialog', { name: /Finish reservation/ });
  await expect(finish).toContainText(/Reservation ends in \d\d:\d\d\./);
  // Nothing irreversible is preselected: the user picks the action, and the form says so.
  await expect(finish.getByRole('radio', { name: 'Transfer and retire' })).not.toBeChecked();
  await expect(finish.getByRole('radio', { name: 'Transfer', exact: true })).not.toBeChecked();
  await finish.getByRole('button', { name: 'Review' }).click();
  await expect(finish.getByText('Choose Transfer, or Transfer and retire.')).toBeVisible();
  await expect(finish.getByText('Choose the organization that receives the credits.')).toBeVisible();
  await finish.getByRole('radio', { name: 'Transfer and retire' }).check();
  const receiver = finish.getByLabel('Receiving organization');
  await expect(receiver.locator('option').nth(1)).toBeAttached();
  const receiverName = (await receiver.locator('option').nth(1).textContent())!;
  await receiver.selectOption({ index: 1 });
  await finish.getByLabel('Beneficiary').fill(beneficiary);
  await finish.getByLabel('Retirement reason').fill('Offsetting 2025 business travel');
  // A price the registry could not keep exactly (a JSON number rounds it), and a currency that is
  // not an ISO 4217 code, are refused before the review, with the reason next to the field.
  await finish.getByLabel('Price per tonne (optional)').fill('99999999999999999999');
  await finish.getByLabel('Currency of the price').fill('ZZZ$$');
  await finish.getByRole('button', { name: 'Review' }).click();
  await expect(finish.getByText('The price can have at most 15 digits, so the registry keeps it exactly as typed.')).toBeVisible();
  await expect(finish.getByText('Enter a currency code (ISO 4217), for example USD, EUR or KES.')).toBeVisible();
  await expect(finish.getByRole('region', { name: 'Confirmation' })).toHaveCount(0);
  await finish.getByLabel('Currency of the price').fill('USD');
  await finish.getByLabel('Price per tonne (optional)').fill('12.50');
  await expect(finish.getByText('Per tonne of CO₂e, in USD.')).toBeVisible();
  await finish.getByRole('button', { name: 'Review' }).click();
  const confirmation = finish.getByRole('region', { name: 'Confirmation' });
  await expect(confirmation).toContainText(`1.25 t of ${serialization}`);
  await expect(confirmation).toContainText(`transferred to ${receiverName}`);
  await expect(confirmation).toContainText(`retired for ${beneficiary}, reason “Offsetting 2025 business travel”`);
  await expect(confirmation).toContainText('Price recorded: 12.50 USD per tonne.');
  await screenshotBothThemes(app, 'warehouse-finish-confirmation');
  const settled = nextAppEvent(app, 'desk:reservation-settled');
  await confirmation.getByRole('button', { name: 'Transfer and retire' }).click();

  // The outcome is followed until the registry has processed it.
  const outcome = app.getByRole('region', { name: 'Transfer outcome' });
  await expect(outcome).toBeVisible();
  expect(await settled).toMatchObject({ state: 'processed' });
  await expect(outcome).toContainText('The credits were transferred and retired.');
  await outcome.getByRole('button', { name: 'View the retirement' }).click();

  // The retirement's details, and its PDF certificate naming the beneficiary.
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details).toContainText(beneficiary);
  const { filename, path } = await downloadText(app, details.getByRole('button', { name: 'Download certificate (PDF)' }));
  expect(filename).toMatch(/\.pdf$/);
  const pdfText = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(pdfText).toContain(beneficiary);
  expect(pdfText).toContain(serialization);

  // After a sync (Ctrl+R), the retirement is in the list, found by searching its beneficiary.
  const synced = nextAppEvent(app, 'desk:sync-finished');
  await app.keyboard.press('Control+r');
  await synced;
  await app.getByRole('searchbox', { name: 'Search retirements' }).fill(beneficiary);
  await app.waitForFunction((b) => document.documentElement.dataset.retirementsQuery === b, beneficiary);
  await expect(app.getByRole('table', { name: 'Retirements' }).getByRole('row', { name: new RegExp(beneficiary) })).toBeVisible();

  // Back in the warehouse, the completed reservation links to its retirement.
  await openWarehouse(app);
  await expect(reservation).toHaveAttribute('data-phase', 'processed');
  await reservation.getByRole('button', { name: 'View the retirement' }).click();
  await expect(app.getByRole('complementary', { name: 'Retirement details' })).toContainText(beneficiary);
});

test('cancel a reservation: the credits are available again', async ({ app }) => {
  await openWarehouse(app);
  const { serialization, availableBefore } = await reserveFirstCredit(app, '2');
  const firstRow = app.getByRole('table', { name: 'Warehouse credits' }).getByRole('row').nth(1);
  await expect(firstRow.getByRole('cell').nth(3)).not.toHaveText(availableBefore);
  const reservation = reservationRow(app, serialization, '2');
  const notice = app.getByRole('region', { name: 'Reservations' }).locator('.notice');
  await expect(notice).toContainText(`Reserved 2 t of ${serialization}`);
  // Cancelling asks first; "Keep it" changes nothing.
  await reservation.getByRole('button', { name: 'Cancel reservation' }).click();
  await reservation.getByRole('button', { name: 'Keep it' }).click();
  await expect(reservation).toHaveAttribute('data-phase', 'active');
  await reservation.getByRole('button', { name: 'Cancel reservation' }).click();
  await expect(reservation.getByRole('group', { name: 'Confirm cancelling' })).toContainText('The credits go back to the warehouse.');
  await reservation.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(reservation).toHaveAttribute('data-phase', 'cancelled');
  // The notice of its making is no longer true: it goes.
  await expect(notice).toHaveCount(0);
  await expect(reservation.getByText('Cancelled')).toBeVisible();
  await expect(firstRow.getByRole('cell').nth(3)).toHaveText(availableBefore);
});

test('a reservation expires when the registry clock passes its 10 minutes', async ({ app, desk }) => {
  await openWarehouse(app);
  const { serialization } = await reserveFirstCredit(app, '1');
  const reservation = reservationRow(app, serialization, '1');
  await expect(reservation).toHaveAttribute('data-phase', 'active');
  await desk.registry!.advanceClock(10 * 60_000 + 1000);
  // The desk learns the registry's time from its answers: refresh once and the row has expired.
  await app.getByRole('button', { name: 'Refresh' }).click();
  await expect(reservation).toHaveAttribute('data-phase', 'expired');
  await expect(reservation.getByText('Expired')).toBeVisible();
  await expect(reservation.getByRole('button', { name: 'Finish…' })).toHaveCount(0);
  await waitForSyncDone(app);
});

test('reservation safety: shown when made, warned at 2 minutes on any screen, Finish locked at expiry', async ({ app, desk }) => {
  await openWarehouse(app);
  const { serialization } = await reserveFirstCredit(app, '1');
  // The new reservation is announced, marked and says when it ends.
  await expect(app.getByRole('region', { name: 'Reservations' }).locator('.notice')).toHaveText(
    `Reserved 1 t of ${serialization} for 10 minutes: it is highlighted under Reservations.`,
  );
  const reservation = reservationRow(app, serialization, '1');
  await expect(reservation).toHaveClass(/row-new/);
  await expect(reservation).toContainText(/until .*\d:\d\d/);

  // 8 minutes later on the registry's clock, on another screen: a notice with about 2 minutes left.
  await desk.registry!.advanceClock(8 * 60_000 + 5_000);
  // The desk takes the registry's time as the median offset of its latest answers: a few reads
  // of the warehouse teach it the jump (a real clock does not jump 8 minutes).
  for (let i = 0; i < 2; i++) {
    const loaded = nextAppEvent(app, 'desk:warehouse-loaded');
    await app.getByRole('button', { name: 'Refresh' }).click();
    await loaded;
  }
  await expect(reservation.getByRole('timer')).toHaveText(/^0[01]:\d\d left$/);
  await app.keyboard.press('Control+1');
  let synced = nextAppEvent(app, 'desk:sync-finished');
  await app.keyboard.press('Control+r');
  await synced;
  const soon = app.locator('[data-notice="soon"]');
  // "2 minutes" while under 55 s of real time has passed since the reservation; a slow sync on a
  // loaded machine can take longer, and then it rightly says 1.
  await expect(soon).toContainText(`Your reservation of 1 t of ${serialization} ends in `);
  await expect(soon).toContainText(/ends in (2 minutes|1 minute): finish it in Warehouse before then\./);
  await screenshotBothThemes(app, 'reservation-two-minutes');
  await soon.getByRole('button', { name: 'Open Warehouse' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Warehouse' })).toBeVisible();

  // The Finish dialog open at expiry locks with a plain message and offers to reserve again.
  await reservation.getByRole('button', { name: 'Finish…' }).click();
  const finish = app.getByRole('dialog', { name: /Finish reservation/ });
  await expect(finish.getByRole('button', { name: 'Review' })).toBeVisible();
  await desk.registry!.advanceClock(2 * 60_000);
  synced = nextAppEvent(app, 'desk:sync-finished');
  await app.keyboard.press('Control+r');
  await synced;
  await expect(finish.getByRole('alert')).toHaveText(
    'This reservation has expired, so it can no longer be finished: its credits went back to the warehouse. Nothing was transferred.',
  );
  await expect(finish.getByRole('button', { name: 'Review' })).toHaveCount(0);
  await expect(app.locator('[data-notice="expired"]')).toContainText(`Your reservation of 1 t of ${serialization} has expired`);
  await screenshotBothThemes(app, 'reservation-expired-finish');
  await finish.getByRole('button', { name: 'Reserve again…' }).click();
  const reserveAgain = app.getByRole('dialog', { name: 'Reserve credits' });
  await expect(reserveAgain).toContainText(serialization);
  await reserveAgain.getByRole('button', { name: 'Cancel' }).click();
  await waitForSyncDone(app);
});
