// A back-office write whose outcome stays unknown is never sent again under a new idempotency key
// (the registry would take it as a second change): a second submit checks the first write again,
// with its own key and body, until the desk can say what happened.
import { useState } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { SETTLE_WAITS_MS, useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

afterEach(() => {
  vi.useRealTimers();
  desk.reset();
});

/** A form whose submit makes one write, as the back office's form dialogs do. */
function OneWriteForm({ name }: { name: string }) {
  const action = useBackOfficeAction('operatorCreateOrganization');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void action.run({ body: { fullName: name } });
      }}
    >
      <button type="submit">Create</button>
      <output data-testid="phase">{action.state.phase}</output>
    </form>
  );
}

const writes = () =>
  desk.calls.filter((c) => c.method === 'backOffice.write').map((c) => c.input as { idempotencyKey: string; body: unknown });
const settles = () =>
  desk.calls.filter((c) => c.method === 'backOffice.settle').map((c) => c.input as { idempotencyKey: string; body: unknown });

it('sends an unsure write once: submitting again checks it with the same key instead', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  desk.answer('backOffice.write', () => ({ outcome: 'unsure', message: 'the registry did not answer' }));
  desk.answer('backOffice.settle', () => ({ outcome: 'unsure', message: 'the registry did not answer' }));
  render(<OneWriteForm name="Acme" />);
  const create = page.getByRole('button', { name: 'Create' });
  const phase = page.getByTestId('phase');

  await create.click();
  await expect.poll(() => settles().length).toBe(1);
  for (let i = 0; i < SETTLE_WAITS_MS.length; i++) await vi.advanceTimersByTimeAsync(Math.max(...SETTLE_WAITS_MS));
  await expect.element(phase).toHaveTextContent('unsure');
  const checkedBefore = settles().length;

  // Submitted again (a user who thinks nothing happened): nothing new is sent, the first is checked.
  desk.answer('backOffice.settle', () => ({ outcome: 'done', data: { id: 'organization-1' } }));
  await create.click();
  await vi.advanceTimersByTimeAsync(Math.max(...SETTLE_WAITS_MS));
  await expect.element(phase).toHaveTextContent('done');
  expect(writes()).toHaveLength(1);
  expect(settles().length).toBeGreaterThan(checkedBefore);
  for (const settle of settles()) expect(settle).toEqual(writes()[0]);
});

/** The form in a dialog the user can close and open again (each opening is a new form). */
function ClosableForm() {
  const [open, setOpen] = useState(true);
  const [name, setName] = useState('Acme');
  return (
    <>
      <button type="button" onClick={() => setOpen(!open)}>
        {open ? 'Close' : 'Open'}
      </button>
      <button type="button" onClick={() => setName('Other')}>
        Change the name
      </button>
      {open && <OneWriteForm name={name} />}
    </>
  );
}

it('an unsure write closed with its dialog is checked under its first key when the same change is confirmed again', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  desk.answer('backOffice.write', () => ({ outcome: 'unsure', message: 'the registry did not answer' }));
  desk.answer('backOffice.settle', () => ({ outcome: 'unsure', message: 'the registry did not answer' }));
  render(<ClosableForm />);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect.poll(() => settles().length).toBe(1);
  for (let i = 0; i < SETTLE_WAITS_MS.length; i++) await vi.advanceTimersByTimeAsync(Math.max(...SETTLE_WAITS_MS));
  await expect.element(page.getByTestId('phase')).toHaveTextContent('unsure');

  // Closed and opened again: a new form, idle; the same change confirmed checks the first write.
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Open' }).click();
  await expect.element(page.getByTestId('phase')).toHaveTextContent('idle');
  desk.answer('backOffice.settle', () => ({ outcome: 'done', data: { id: 'organization-1' } }));
  await page.getByRole('button', { name: 'Create' }).click();
  await expect.element(page.getByTestId('phase')).toHaveTextContent('done');
  expect(writes()).toHaveLength(1);
  for (const settle of settles()) expect(settle).toEqual(writes()[0]);

  // Known now: the same change made again is a new write, with a new key; so is another change.
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { id: 'organization-2' } }));
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect.element(page.getByTestId('phase')).toHaveTextContent('done');
  await page.getByRole('button', { name: 'Change the name' }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect.poll(() => writes().length).toBe(3);
  expect(new Set(writes().map((w) => w.idempotencyKey)).size).toBe(3);
  expect(writes()[2]!.body).toEqual({ fullName: 'Other' });
});
