// The active connection's history actions in Settings: "Save the evidence" saves the file the desk
// made; "Verify this registry from scratch…" first says plainly that it accepts the registry's
// history as it is now and shows the key it will pin (another than the pinned one is said), Cancel
// changes nothing, and only the confirmation starts over, with the key shown. The embedded demo's
// card names the file that holds its keys; a card says whether internal projects are synced.
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { ConnectionInfo, HistoryVerification } from '@shared/desk/api';
import { ConnectionCard } from '@renderer/screens/settings/ConnectionCard';
import { HistoryActions } from '@renderer/screens/settings/HistoryActions';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();
afterEach(() => desk.reset());

const pinned = { key: 'registry.example+1a2b3c4d+AeYq', fingerprint: '3f2a 9b1c 0d4e 5f60' };
const served = { key: 'registry.example+99887766+AfZz', fingerprint: 'aa11 bb22 cc33 dd44' };
const connection: ConnectionInfo = {
  id: 'c1',
  name: 'Partner registry',
  kind: 'remote',
  baseUrl: 'http://127.0.0.1:4010',
  appId: 'app',
  keyStatus: 'ok',
  secretStore: 'keychain',
  examinerRead: false,
  installations: [],
  logKey: pinned,
};
const failed: HistoryVerification = {
  state: 'failed',
  entries: 1234,
  upTo: '2026-11-28T23:45:00.000Z',
  checkedAt: '2026-11-29T01:00:00.000Z',
  message: "This registry's history changed since it was last verified: two different histories of 1234 entries were signed.",
  pending: 0,
  evidence: 1,
};
const calls = (method: string) => desk.calls.filter((c) => c.method === method).map((c) => c.input);

it('saves the evidence as the file the desk made', async () => {
  const file = {
    handle: 'evidence-handle-0001',
    kind: 'json' as const,
    filename: 'history-evidence Partner registry 2026-11-29.json',
    size: 900,
  };
  desk.answer('sync.exportEvidence', () => file);
  const saved: string[] = [];
  desk.saveFile(async ({ handle }) => (saved.push(handle), { saved: true, path: '/tmp/e.json' }));
  render(<HistoryActions connection={connection} history={failed} />);
  await page.getByRole('button', { name: 'Save the evidence' }).click();
  await expect.poll(() => saved).toEqual([file.handle]);
});

it('starts over only after saying what it means and showing the key it will pin', async () => {
  desk.answer('connections.logKey', () => ({ logKey: served }));
  desk.answer('connections.startOver', () => ({ ...connection, logKey: served }));
  desk.answer('connections.list', () => ({ activeId: 'c1', connections: [], keychain: { available: true } }));
  desk.answer('sync.run', () => ({ started: true }));
  render(<HistoryActions connection={connection} history={failed} />);
  await page.getByRole('button', { name: 'Verify this registry from scratch…' }).click();
  const review = page.getByRole('region', { name: 'Verify this registry from scratch' });
  await expect.element(review).toHaveTextContent("you accept the registry's history as it is now");
  await expect.element(review).toHaveTextContent('the 1,234 entries verified up to');
  await expect.element(review).toHaveTextContent(`the key whose fingerprint is ${served.fingerprint}`);
  await expect.element(review).toHaveTextContent(`This is not the key pinned before (fingerprint ${pinned.fingerprint})`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect.element(review).not.toBeInTheDocument();
  expect(calls('connections.startOver')).toEqual([]);

  await page.getByRole('button', { name: 'Verify this registry from scratch…' }).click();
  await page.getByLabelText('Key obtained another way (optional)').fill(pinned.key);
  await expect.element(page.getByRole('button', { name: 'Accept the new history and start over' })).toBeDisabled();
  await page.getByLabelText('Key obtained another way (optional)').fill('');
  await page.getByRole('button', { name: 'Accept the new history and start over' }).click();
  await expect.poll(() => calls('connections.startOver')).toEqual([{ id: 'c1', logKey: served.key }]);
  await expect.poll(() => calls('sync.run').length).toBe(1);
});

it("the embedded demo's card names where its keys are: demo-credentials.json in the data folder", async () => {
  desk.answer('system.info', () => ({ version: '1.0.0', host: 'web', dataDir: '/home/ada/.registry-desk' }));
  const embedded: ConnectionInfo = { ...connection, id: 'embedded', name: 'Embedded demo registry', kind: 'embedded', logKey: undefined };
  render(<ConnectionCard connection={embedded} active={false} />);
  const card = page.getByRole('region', { name: 'Connection Embedded demo registry' });
  await expect.element(card.getByText('/home/ada/.registry-desk/embedded-registry/demo-credentials.json')).toBeVisible();
  await expect.element(card).toHaveTextContent(/operators’ and demo wallets’ keys/);

  // a remote registry's card does not: its keys come from whoever runs it
  render(<ConnectionCard connection={connection} active={false} />);
  await expect.element(page.getByRole('region', { name: 'Connection Partner registry' })).toBeVisible();
  expect(page.getByRole('region', { name: 'Connection Partner registry' }).element().textContent).not.toContain('demo-credentials.json');
});

it('says whether internal projects are synced, as the examiner grant allows', async () => {
  render(<ConnectionCard connection={connection} active={false} />);
  const card = page.getByRole('region', { name: 'Connection Partner registry' });
  await expect
    .element(card)
    .toHaveTextContent('Not allowed: not synced (an operator grants examiner rights in the back office, under Apps)');
  render(<ConnectionCard connection={{ ...connection, id: 'c2', name: 'Examined', examinerRead: true }} active={false} />);
  await expect
    .element(page.getByRole('region', { name: 'Connection Examined' }))
    .toHaveTextContent('Allowed: synced with the public projects');
});
