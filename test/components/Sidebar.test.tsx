// The sidebar in a narrow window, where it is a rail: every screen shows a mark of its own (a first
// letter alone repeats: Organizations and Operators, Connections and Credit history, Apps and Audit
// log), and keeps its whole name as accessible name and tooltip.
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Sidebar } from '@renderer/components/Sidebar';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';
import '@renderer/styles/app.css';
import '@renderer/styles/lists.css';

installScriptedBridge();

it('in the narrow rail each screen shows a distinct mark and keeps its name and tooltip', async () => {
  await page.viewport(1000, 800);
  render(
    <div className="app">
      <Sidebar />
    </div>,
  );
  await expect.element(page.getByRole('button', { name: 'Credit history' })).toBeInTheDocument();
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('.sidebar .nav-item')];
  expect(buttons).toHaveLength(14);
  // What is seen: each button's mark (its full name is there for screen readers only).
  const seen = buttons.map((button) => {
    const mark = button.querySelector<HTMLElement>('.nav-mark');
    const label = button.querySelector<HTMLElement>('.nav-label');
    expect(label && label.offsetWidth <= 1).toBe(true);
    return mark && mark.offsetWidth > 1 ? mark.textContent : '';
  });
  expect(seen.every((mark) => mark.length >= 2)).toBe(true);
  expect(new Set(seen).size).toBe(buttons.length);
  const names = buttons.map((button) => button.title);
  expect(new Set(names).size).toBe(buttons.length);
  await expect.element(page.getByRole('button', { name: 'Organizations (operator)' })).toBeInTheDocument();
  await page.viewport(1440, 900);
});
