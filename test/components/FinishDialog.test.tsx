// The warehouse Finish dialog in real Chromium, against a desk scripted through its bridge: what it
// refuses before anything is sent, its steps (form, confirmation, outcome), and exactly what it
// sends for a transfer and for a transfer-and-retire.
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { page } from 'vitest/browser';
import type { DeskOutput } from '@shared/desk/api';
import { FinishDialog } from '@renderer/screens/warehouse/FinishDialog';
import { Announcer } from '@renderer/components/Announcer';
import { render } from './render';
import { deskError, installScriptedBridge } from './scripted-bridge';
import { pendingReservation } from './reservation-stub';

const desk = installScriptedBridge();

const NOW = new Date().toISOString();
const WALLET = '0x9f1f8a2b3c4d5e6f708192a3b4c5d6e7f8091a2b';

function organization(id: string, fullName: string): DeskOutput<'organizations.list'>['organizations'][number] {
  return {
    id,
    fullName,
    createdAt: NOW,
    updatedAt: NOW,
    countryCode: 'DE',
    city: 'Berlin',
    zip: '10115',
    physicalAddress: 'Street 1',
    registrationNumber: 'HRB 1',
    website: 'https://example.org',
    logo: '',
    organizationIndustries: { code: 'C', name: 'Manufacturing' },
    type: 'buyer',
    isPublic: true,
    url: '',
    installed: false,
  };
}

const reservation = pendingReservation(NOW);

let finished: Mock<() => void>;

/** `announcer`: with the desk's announcer beside it, to hear what the dialog says. */
function open(announcer = false) {
  finished = vi.fn();
  render(
    <>
      {announcer && <Announcer />}
      <FinishDialog
        organizationId="org-a"
        organizationName="Seller Ltd."
        reservation={reservation}
        clockOffsetMs={0}
        onClose={() => {}}
        onFinished={finished}
      />
    </>,
  );
}

const sent = () => desk.calls.filter((c) => c.method === 'warehouse.finish').map((c) => c.input);

beforeEach(() => {
  desk.reset();
  desk.answer('organizations.list', () => ({
    organizations: [organization('org-a', 'Seller Ltd.'), organization('org-c', 'Zeta Traders'), organization('org-b', 'Acme Corp')],
    asOf: NOW,
    offline: false,
  }));
  desk.answer('warehouse.reservation', () => ({ ...reservation, state: 'processed', isComplete: true }));
});

describe('the Finish dialog', () => {
  it('offers the other organizations as receivers and sends nothing until the form is complete', async () => {
    open();
    const receiver = page.getByLabelText('Receiving organization');
    await expect.element(page.getByRole('option', { name: 'Acme Corp' })).toBeInTheDocument();
    const options = [...(receiver.element() as HTMLSelectElement).options].map((o) => o.text);
    expect(options).toEqual(['Choose an organization', 'Acme Corp', 'Zeta Traders']);

    // Nothing irreversible is chosen for the user: neither action is checked until they pick one.
    expect(page.getByRole('radio', { checked: true }).query()).toBeNull();
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.element(page.getByText('Choose Transfer, or Transfer and retire.')).toBeVisible();
    await expect.element(page.getByText('Choose the organization that receives the credits.')).toBeVisible();
    expect(page.getByLabelText('Beneficiary').query()).toBeNull();
    await page.getByRole('radio', { name: 'Transfer and retire' }).click();
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.element(page.getByText('Enter who the retirement is for (the certificate names them).')).toBeVisible();
    await expect.element(page.getByText('Enter the reason for retiring the credits.')).toBeVisible();
    await expect.element(receiver).toHaveAttribute('aria-invalid', 'true');
    expect(page.getByRole('region', { name: 'Confirmation' }).query()).toBeNull();
    expect(desk.calls.map((c) => c.method)).toEqual(['organizations.list']);
  });

  it('transfers: checks the wallet and the price, confirms in words, then sends exactly the form', async () => {
    open();
    await page.getByRole('radio', { name: 'Transfer', exact: true }).click();
    expect(page.getByLabelText('Beneficiary').query()).toBeNull();
    await expect.element(page.getByRole('option', { name: 'Acme Corp' })).toBeInTheDocument();
    await page.getByLabelText('Receiving organization').selectOptions('Acme Corp');
    await page.getByLabelText('Receiving wallet address (optional)').fill('0x123');
    await page.getByLabelText('Price per tonne (optional)').fill('12,50');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.element(page.getByText('A wallet address is 0x followed by 40 hexadecimal characters.')).toBeVisible();
    await expect
      .element(page.getByText('“12,50” is ambiguous: in this desk “,” separates thousands, so write 12.50 if that is what you mean.'))
      .toBeVisible();

    await page.getByLabelText('Receiving wallet address (optional)').fill(` ${WALLET} `);
    await page.getByLabelText('Price per tonne (optional)').fill('12.50');
    await page.getByLabelText('Currency').fill('eur');
    await page.getByLabelText('Transfer comment (optional)').fill('  Q3 lot ');
    await page.getByRole('button', { name: 'Review' }).click();

    const confirmation = page.getByRole('region', { name: 'Confirmation' });
    await expect.element(confirmation).toBeVisible();
    const lines = [...confirmation.element().querySelectorAll('li')].map((li) => li.textContent);
    expect(lines).toEqual([
      '1.5 t of RDR-KEN-1-12-7-P-1-2023 (Kenya Cookstoves) leave the warehouse of Seller Ltd.',
      `They are transferred to Acme Corp, wallet ${WALLET}.`,
      'Price recorded: 12.50 EUR per tonne.',
      'Transfer comment: “Q3 lot”.',
      'This cannot be undone.',
    ]);
    expect(sent()).toEqual([]);

    // Back keeps what was typed.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect.element(page.getByLabelText('Currency')).toHaveValue('eur');
    await page.getByRole('button', { name: 'Review' }).click();

    desk.answer('warehouse.finish', () => ({ success: true, transactionId: 'transaction-1', state: 'pending_queue' }));
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await expect.element(page.getByText('The credits were transferred.')).toBeVisible();
    expect(sent()).toEqual([
      {
        organizationId: 'org-a',
        reservationId: 'reservation-1',
        action: 'transfer',
        body: { receiverId: 'org-b', receiverAddress: WALLET, transferComment: 'Q3 lot', priceInfo: { price: 12.5, currency: 'EUR' } },
      },
    ]);
    expect(finished).toHaveBeenCalledTimes(1);
    await expect.element(page.getByText('transaction-1')).toBeVisible();
  });

  it('never repeats a bad currency in the price hint, and says at once what is wrong with it', async () => {
    open();
    const price = page.getByLabelText('Price per tonne (optional)');
    const currency = page.getByLabelText('Currency of the price');
    await expect.element(price).toHaveAccessibleDescription('Per tonne of CO₂e, in USD.');
    await currency.fill('ZZZ$$');
    await expect.element(price).toHaveAccessibleDescription('Per tonne of CO₂e, in the currency of the price (below).');
    await expect.element(currency).toHaveAttribute('aria-invalid', 'true');
    await expect.element(currency).toHaveAccessibleDescription('Enter a currency code (ISO 4217), for example USD, EUR or KES.');
    await currency.fill('ZZZ');
    await expect.element(price).toHaveAccessibleDescription('Per tonne of CO₂e, in the currency of the price (below).');
    await currency.fill('kes');
    await expect.element(price).toHaveAccessibleDescription('Per tonne of CO₂e, in KES.');
    await expect.element(currency).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('says what a refused review lacks in the order the form shows it, from the field focus is on', async () => {
    open(true);
    await page.getByRole('radio', { name: 'Transfer and retire' }).click();
    await expect.element(page.getByRole('option', { name: 'Zeta Traders' })).toBeInTheDocument();
    await page.getByLabelText('Receiving organization').selectOptions('Zeta Traders');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.element(page.getByLabelText('Beneficiary')).toHaveFocus();
    const announcer = page.getByRole('status').filter({ hasText: 'Not ready for review' });
    await expect
      .element(announcer)
      .toHaveTextContent(
        'Not ready for review: 2 fields need attention. Enter who the retirement is for (the certificate names them). Enter the reason for retiring the credits.',
      );
  });

  it('transfers and retires: a refused finish says nothing was transferred, and a second try sends the same', async () => {
    open();
    await page.getByRole('radio', { name: 'Transfer and retire' }).click();
    await expect.element(page.getByRole('option', { name: 'Zeta Traders' })).toBeInTheDocument();
    await page.getByLabelText('Receiving organization').selectOptions('Zeta Traders');
    await page.getByLabelText('Beneficiary').fill(' Ada Lovelace ');
    await page.getByLabelText('Retirement reason').fill('Net zero 2030');
    await page.getByLabelText('Retirement comment (optional)').fill('Scope 3');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect
      .element(page.getByText('They are then retired for Ada Lovelace, reason “Net zero 2030”, comment “Scope 3”.', { exact: false }))
      .toBeVisible();

    desk.answer('warehouse.finish', () => deskError('conflict', 'The reservation has expired.'));
    await page.getByRole('button', { name: 'Transfer and retire' }).click();
    await expect.element(page.getByRole('alert')).toHaveTextContent('Nothing was transferred: The reservation has expired.');
    expect(finished).not.toHaveBeenCalled();
    await expect.element(page.getByRole('region', { name: 'Confirmation' })).toBeVisible();

    desk.answer('warehouse.finish', () => ({ success: true, transactionId: 'transaction-2', state: 'pending_queue' }));
    await page.getByRole('button', { name: 'Transfer and retire' }).click();
    await expect.element(page.getByText('The credits were transferred and retired.')).toBeVisible();
    const body = {
      receiverId: 'org-c',
      retirementData: { reason: 'Net zero 2030', beneficiaryName: 'Ada Lovelace', comment: 'Scope 3' },
    };
    expect(sent()).toEqual([
      { organizationId: 'org-a', reservationId: 'reservation-1', action: 'transfer_retire', body },
      { organizationId: 'org-a', reservationId: 'reservation-1', action: 'transfer_retire', body },
    ]);
    expect(finished).toHaveBeenCalledTimes(1);
  });
});
