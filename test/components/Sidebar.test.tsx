// The sidebar in a narrow window, where it is a rail: every screen shows a mark of its own (a first
// letter alone repeats: Organizations and Operators, Connections and Credit history, Apps and Audit
// log), and keeps its whole name as accessible name and tooltip.
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Sidebar } from '@renderer/components/Sidebar';
import { useSync } from '@renderer/stores/sync';
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

it('in the narrow rail the verified-history line does not spill out of the rail', async () => {
  await page.viewport(1000, 800);
  const upTo = new Date().toISOString();
  const history = { state: 'verified' as const, entries: 3148, upTo, checkedAt: upTo, message: null, pending: 0, evidence: 0 };
  useSync.setState({
    status: {
      running: false,
      progress: null,
      lastSuccess: {},
      lastError: null,
      online: true,
      dataAsOf: upTo,
      runsEnded: { service: 'rail', count: 0 },
      history,
    },
  });
  render(
    <div className="app">
      <Sidebar />
    </div>,
  );
  await expect.element(page.getByText(/^History verified: /)).toBeInTheDocument();
  const line = document.querySelector<HTMLElement>('.sync-history')!;
  // Seen, it was a column of clipped words running past the rail's edge ("Histo verifie 3.14"):
  // now it is there for screen readers only, or fits.
  const rail = document.querySelector<HTMLElement>('.sidebar')!;
  const fits = line.getBoundingClientRect().right <= rail.getBoundingClientRect().right && line.scrollWidth <= line.clientWidth;
  expect(line.offsetWidth <= 1 || fits, `the line is ${line.scrollWidth} px wide in a rail of ${rail.clientWidth} px`).toBe(true);
  await page.viewport(1440, 900);
});
