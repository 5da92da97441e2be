// The theme radios with a desk that answers saves late and out of order (a keyboard user arrowing
// through the radios sends one save per radio): the theme ends on the last choice, an older save's
// answer or failure never overwrites it, and a sync interval save does not touch the theme.
import { beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { DeskError, Theme } from '@shared/desk/api';
import { ThemePicker } from '@renderer/screens/settings/ThemePicker';
import { useSettings } from '@renderer/stores/settings';
import { render } from './render';
import { deskError, installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

type Stored = { theme: Theme; syncIntervalMinutes: number };
type Change = Partial<Stored>;

/** settings.set calls the test answers one by one (by the theme or the interval they save). */
function heldSaves() {
  const pending: { change: Change; answer: (value: Stored | DeskError) => void }[] = [];
  desk.answer('settings.set', (input) => new Promise((answer) => pending.push({ change: input as Change, answer })));
  const find = (change: Change) => {
    const at = pending.findIndex((p) => JSON.stringify(p.change) === JSON.stringify(change));
    if (at < 0) throw new Error(`no save of ${JSON.stringify(change)} is waiting`);
    return pending.splice(at, 1)[0]!;
  };
  return {
    waiting: () => pending.map((p) => p.change),
    /** The desk stored it; `stored` is the whole of what it answers. */
    store: (change: Change, stored: Stored) => find(change).answer(stored),
    fail: (change: Change) => find(change).answer(deskError('internal', 'The settings file could not be written.')),
  };
}

const radio = (name: string) => page.getByRole('radio', { name });
const htmlTheme = () => document.documentElement.dataset.theme;
/** Two frames: an answer given has been handled and rendered by then. */
const rendered = async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
};

beforeEach(async () => {
  desk.reset();
  desk.answer('settings.get', () => ({ theme: 'system', syncIntervalMinutes: 15 }));
  await useSettings.getState().load();
  render(<ThemePicker />);
  await expect.element(radio('Same as system')).toBeChecked();
});

async function arrowLightDarkSystem(saves: ReturnType<typeof heldSaves>) {
  await radio('Light').click();
  await userEvent.keyboard('{ArrowRight}');
  await userEvent.keyboard('{ArrowRight}');
  await expect.poll(() => saves.waiting()).toEqual([{ theme: 'light' }, { theme: 'dark' }, { theme: 'system' }]);
}

it('ends on the last choice whatever order the saves answer in', async () => {
  const saves = heldSaves();
  await arrowLightDarkSystem(saves);
  saves.store({ theme: 'system' }, { theme: 'system', syncIntervalMinutes: 15 });
  saves.store({ theme: 'dark' }, { theme: 'dark', syncIntervalMinutes: 15 });
  saves.store({ theme: 'light' }, { theme: 'light', syncIntervalMinutes: 15 });
  await expect.poll(() => desk.answered('settings.set')).toBe(3);
  await rendered();
  expect(radio('Same as system').element()).toBeChecked();
  expect(htmlTheme()).toBe('system');
});

it("an older choice's failure changes nothing; the latest one's puts back what the desk stored", async () => {
  const saves = heldSaves();
  await arrowLightDarkSystem(saves);
  saves.store({ theme: 'dark' }, { theme: 'dark', syncIntervalMinutes: 15 });
  saves.fail({ theme: 'light' });
  await expect.poll(() => desk.answered('settings.set')).toBe(2);
  await rendered();
  expect(radio('Same as system').element()).toBeChecked();
  expect(htmlTheme()).toBe('system');
  expect(page.getByText('The theme was not saved', { exact: false }).query()).toBeNull();

  // The latest fails: back to the last theme the desk stored (dark), not to the one before it on screen.
  saves.fail({ theme: 'system' });
  await expect.element(page.getByText('The theme was not saved: The settings file could not be written.')).toBeVisible();
  expect(radio('Dark').element()).toBeChecked();
  expect(htmlTheme()).toBe('dark');
});

it("a sync interval save's answer does not overwrite a theme chosen since", async () => {
  const saves = heldSaves();
  const interval = useSettings.getState().save({ syncIntervalMinutes: 30 });
  await radio('Dark').click();
  await expect.poll(() => saves.waiting()).toEqual([{ syncIntervalMinutes: 30 }, { theme: 'dark' }]);
  // The desk stored the interval before the theme: its answer still names the old theme.
  saves.store({ theme: 'dark' }, { theme: 'dark', syncIntervalMinutes: 30 });
  saves.store({ syncIntervalMinutes: 30 }, { theme: 'system', syncIntervalMinutes: 30 });
  await interval;
  await rendered();
  expect(useSettings.getState()).toMatchObject({ theme: 'dark', syncIntervalMinutes: 30 });
  expect(radio('Dark').element()).toBeChecked();
  expect(htmlTheme()).toBe('dark');
});
