// Adding a remote connection while its key files are still being read by the desk: Add waits for
// both reads and sends both handles (pressed early, it once checked an operator key that had not
// arrived yet, because the two file fields shared one "reading" flag); and a key file chosen again
// before the first was read keeps the last choice, whatever order the reads end in. Cancel: while the
// desk connects it is unavailable (it once closed the form while the connection was still added, and
// the end of that Add then closed the next form); while a key file is read it stops the Add unsent.
// Add first shows the registry's log key for review; "Confirm and add" adds, pinning it.
import { useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { PickedKey } from '@shared/desk/api';
import { AddConnectionForm } from '@renderer/screens/settings/AddConnectionForm';
import { useConnections } from '@renderer/stores/connections';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

afterEach(() => desk.reset());

const pem = (name: string) =>
  new File(['-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----\n'], name, { type: 'application/x-pem-file' });

/** Key reads the test ends one by one: each file's read waits until `finish(name)`. */
function heldKeyReads() {
  const pending = new Map<string, () => void>();
  desk.importKeyFile(
    (file) =>
      new Promise<PickedKey | null>((resolve) => {
        const fileName = file?.name ?? 'unnamed.pem';
        pending.set(fileName, () => resolve({ handle: `handle-for-${fileName.replace(/\W/g, '-')}`, fileName }));
      }),
  );
  return {
    reading: (name: string) => pending.has(name),
    finish(name: string) {
      pending.get(name)!();
      pending.delete(name);
    },
  };
}

function showForm(): { done: (string | undefined)[] } {
  useConnections.setState({ list: { activeId: null, connections: [], keychain: { available: true } } });
  const done: (string | undefined)[] = [];
  render(<AddConnectionForm onDone={(added) => done.push(added)} />);
  return { done };
}

async function fillConnection() {
  await page.getByLabelText('Connection name').fill('Partner registry');
  await page.getByLabelText('Registry address').fill('http://127.0.0.1:4010');
  await page.getByLabelText('App id').fill('272471e8-0925-46d0-ad37-650d2a6b9726');
  await page.getByLabelText('Operator id').fill('3fc97dd3-12da-49ff-b8ce-1f2eefa669a8');
}

const partnerConnection = {
  id: 'c1',
  name: 'Partner registry',
  kind: 'remote' as const,
  baseUrl: 'http://127.0.0.1:4010',
  appId: '272471e8-0925-46d0-ad37-650d2a6b9726',
  keyStatus: 'ok' as const,
  secretStore: 'keychain' as const,
  examinerRead: false,
  installations: [],
  operatorId: '3fc97dd3-12da-49ff-b8ce-1f2eefa669a8',
};

const addRemoteCalls = () => desk.calls.filter((c) => c.method === 'connections.addRemote').map((c) => c.input);

const served = { key: 'registry.example+1a2b3c4d+AeYq', fingerprint: '3f2a 9b1c 0d4e 5f60' };
/** The registry's log key, answered for the review Add shows before anything is added. */
const servesKey = (logKey: typeof served | null = served) => desk.answer('connections.logKey', () => ({ logKey }));
const confirm = async () => {
  await expect.element(page.getByRole('group', { name: "The registry's log key" })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and add' }).click();
};

it('Add pressed while the operator key is still being read waits for it, then sends both keys', async () => {
  const reads = heldKeyReads();
  servesKey();
  desk.answer('connections.addRemote', () => partnerConnection);
  desk.answer('connections.list', () => ({ activeId: null, connections: [], keychain: { available: true } }));
  const { done } = showForm();
  await fillConnection();
  await page.getByLabelText('Private key file').upload(pem('app-key.pem'));
  await page.getByLabelText('Operator key file').upload(pem('operator.pem'));
  await expect.poll(() => reads.reading('app-key.pem') && reads.reading('operator.pem')).toBe(true);
  // Each file's line is drawn when it is chosen (drawn once read, it moved Add under the pointer).
  await expect.element(page.getByText('Reading key file: operator.pem')).toBeVisible();
  // The app key's read ends first: the operator key is still on its way when Add is pressed.
  reads.finish('app-key.pem');
  await expect.element(page.getByText('Chosen key file: app-key.pem')).toBeVisible();
  await page.getByRole('button', { name: 'Add connection' }).click();
  const waiting = page.getByRole('button', { name: 'Reading the key file…' });
  await expect.element(waiting).toHaveAttribute('aria-disabled', 'true');
  expect(addRemoteCalls()).toEqual([]);
  await expect.element(page.getByRole('alert')).not.toBeInTheDocument();

  reads.finish('operator.pem');
  await confirm();
  await expect.poll(() => done).toEqual(['Partner registry']);
  expect(addRemoteCalls()).toEqual([
    {
      logKey: served.key,
      name: 'Partner registry',
      baseUrl: 'http://127.0.0.1:4010',
      appId: '272471e8-0925-46d0-ad37-650d2a6b9726',
      keyHandle: 'handle-for-app-key-pem',
      operator: { id: '3fc97dd3-12da-49ff-b8ce-1f2eefa669a8', keyHandle: 'handle-for-operator-pem' },
    },
  ]);
});

it('a key file chosen again before the first was read keeps the last choice', async () => {
  const reads = heldKeyReads();
  servesKey();
  desk.answer('connections.addRemote', (input) => ({
    ...partnerConnection,
    ...(input as object),
    id: 'c2',
    operatorId: undefined,
    logKey: served,
  }));
  desk.answer('connections.list', () => ({ activeId: null, connections: [], keychain: { available: true } }));
  const { done } = showForm();
  await fillConnection();
  await page.getByLabelText('Operator id').fill('');
  await page.getByLabelText('Private key file').upload(pem('old-key.pem'));
  await expect.poll(() => reads.reading('old-key.pem')).toBe(true);
  await page.getByLabelText('Private key file').upload(pem('new-key.pem'));
  await expect.poll(() => reads.reading('new-key.pem')).toBe(true);
  reads.finish('new-key.pem');
  await expect.element(page.getByText('Chosen key file: new-key.pem')).toBeVisible();
  // The first read ends last: it is ignored, and the key sent is the one chosen last.
  reads.finish('old-key.pem');
  await page.getByRole('button', { name: 'Add connection' }).click();
  await confirm();
  await expect.poll(() => done).toEqual(['Partner registry']);
  expect(addRemoteCalls()).toMatchObject([{ keyHandle: 'handle-for-new-key-pem' }]);
});

it("describes the operator key file as the operator account's key", async () => {
  showForm();
  await expect.element(page.getByText("The app's RSA private key", { exact: false })).toBeVisible();
  await expect.element(page.getByText("The operator account's RSA private key", { exact: false })).toBeVisible();
});

/** The settings screen's part: the form opened by its button, closed by `onDone`. */
function Connections({ done }: { done: (string | undefined)[] }) {
  const [adding, setAdding] = useState(true);
  return adding ? (
    <AddConnectionForm
      onDone={(added) => {
        done.push(added);
        setAdding(false);
      }}
    />
  ) : (
    <button type="button" onClick={() => setAdding(true)}>
      Add remote connection…
    </button>
  );
}

function showConnections(): { done: (string | undefined)[] } {
  useConnections.setState({ list: { activeId: null, connections: [], keychain: { available: true } } });
  const done: (string | undefined)[] = [];
  render(<Connections done={done} />);
  return { done };
}

it('Cancel is unavailable while the desk connects (it says why), and the form closes once added', async () => {
  desk.importKeyFile(async (file) => ({ handle: 'handle-for-app-key-pem', fileName: file?.name ?? 'app-key.pem' }));
  servesKey();
  let connected: () => void = () => {};
  desk.answer(
    'connections.addRemote',
    () => new Promise((resolve) => (connected = () => resolve({ ...partnerConnection, operatorId: undefined }))),
  );
  desk.answer('connections.list', () => ({ activeId: null, connections: [], keychain: { available: true } }));
  const { done } = showConnections();
  await fillConnection();
  await page.getByLabelText('Operator id').fill('');
  await page.getByLabelText('Private key file').upload(pem('app-key.pem'));
  await expect.element(page.getByText('Chosen key file: app-key.pem')).toBeVisible();
  await page.getByRole('button', { name: 'Add connection' }).click();
  await confirm();
  await expect.poll(() => addRemoteCalls().length).toBe(1);

  const cancel = page.getByRole('button', { name: 'Cancel' });
  await cancel.click({ force: true });
  await expect.element(page.getByRole('button', { name: 'Connecting…' })).toBeVisible();
  await expect.element(cancel).toHaveAttribute('aria-disabled', 'true');
  await expect.element(cancel).toHaveAccessibleDescription(/cannot stop half-way/);
  expect(done).toEqual([]);

  connected();
  await expect.poll(() => done).toEqual(['Partner registry']);
  await expect.element(page.getByRole('button', { name: 'Add remote connection…' })).toBeVisible();
});

it('Cancel while a key file is still being read closes the form and sends nothing', async () => {
  const reads = heldKeyReads();
  servesKey();
  desk.answer('connections.addRemote', () => partnerConnection);
  desk.answer('connections.list', () => ({ activeId: null, connections: [], keychain: { available: true } }));
  const { done } = showConnections();
  await fillConnection();
  await page.getByLabelText('Operator id').fill('');
  await page.getByLabelText('Private key file').upload(pem('app-key.pem'));
  await expect.poll(() => reads.reading('app-key.pem')).toBe(true);
  await page.getByRole('button', { name: 'Add connection' }).click();
  await expect.element(page.getByRole('button', { name: 'Reading the key file…' })).toBeVisible();

  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(done).toEqual([undefined]);
  // The form opened again at once; the first one's key read ends afterwards, and the second form adds its own.
  await page.getByRole('button', { name: 'Add remote connection…' }).click();
  await expect.element(page.getByLabelText('Connection name')).toBeVisible();
  reads.finish('app-key.pem');
  await fillConnection();
  await page.getByLabelText('Connection name').fill('Second registry');
  await page.getByLabelText('Operator id').fill('');
  await page.getByLabelText('Private key file').upload(pem('second-key.pem'));
  await expect.poll(() => reads.reading('second-key.pem')).toBe(true);
  reads.finish('second-key.pem');
  await expect.element(page.getByText('Chosen key file: second-key.pem')).toBeVisible();
  await page.getByRole('button', { name: 'Add connection' }).click();
  await confirm();
  await expect.poll(() => done).toEqual([undefined, 'Second registry']);
  expect(addRemoteCalls()).toMatchObject([{ name: 'Second registry', keyHandle: 'handle-for-second-key-pem' }]);
});

it('says where the key will be kept when a keychain is available (keytar, or safeStorage in its place)', async () => {
  const reason = 'Keys are kept encrypted by Electron safeStorage (kwallet5), because keytar is unavailable: keytar could not be loaded.';
  useConnections.setState({ list: { activeId: null, connections: [], keychain: { available: true, reason } } });
  render(<AddConnectionForm onDone={() => {}} />);
  await expect.element(page.getByText(reason)).toBeVisible();
  await expect.element(page.getByLabelText('Passphrase for the key file')).not.toBeInTheDocument();
});

it("shows the registry's log key for review before anything is added, and refuses a pasted key that differs", async () => {
  desk.importKeyFile(async (file) => ({ handle: 'handle-for-app-key-pem', fileName: file?.name ?? 'app-key.pem' }));
  servesKey();
  desk.answer('connections.addRemote', () => ({ ...partnerConnection, operatorId: undefined }));
  desk.answer('connections.list', () => ({ activeId: null, connections: [], keychain: { available: true } }));
  const { done } = showForm();
  await fillConnection();
  await page.getByLabelText('Operator id').fill('');
  await page.getByLabelText('Private key file').upload(pem('app-key.pem'));
  await expect.element(page.getByText('Chosen key file: app-key.pem')).toBeVisible();
  await page.getByRole('button', { name: 'Add connection' }).click();
  const review = page.getByRole('group', { name: "The registry's log key" });
  await expect.element(review).toHaveTextContent(`the key whose fingerprint is ${served.fingerprint}`);
  await expect.element(review).toHaveTextContent(served.key);
  expect(addRemoteCalls()).toEqual([]);

  const pasted = page.getByLabelText('Key obtained another way (optional)');
  await pasted.fill('registry.example+99999999+AAAA');
  await expect.element(page.getByText('The key you pasted is not the key this registry serves.')).toBeVisible();
  await expect.element(pasted).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Confirm and add' }).click();
  await expect
    .element(page.getByText('The connection was not added: the key you pasted is not the key this registry serves.'))
    .toBeVisible();
  expect(addRemoteCalls()).toEqual([]);

  await pasted.fill(` ${served.key} `);
  await expect.element(page.getByText('The key you pasted is the key this registry serves.')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and add' }).click();
  await expect.poll(() => done).toEqual(['Partner registry']);
  expect(addRemoteCalls()).toMatchObject([{ logKey: served.key }]);
});

it('says when a registry publishes no log, and adds it as one whose history cannot be verified', async () => {
  desk.importKeyFile(async (file) => ({ handle: 'handle-for-app-key-pem', fileName: file?.name ?? 'app-key.pem' }));
  servesKey(null);
  desk.answer('connections.addRemote', () => ({ ...partnerConnection, operatorId: undefined }));
  desk.answer('connections.list', () => ({ activeId: null, connections: [], keychain: { available: true } }));
  const { done } = showForm();
  await fillConnection();
  await page.getByLabelText('Operator id').fill('');
  await page.getByLabelText('Private key file').upload(pem('app-key.pem'));
  await expect.element(page.getByText('Chosen key file: app-key.pem')).toBeVisible();
  await page.getByRole('button', { name: 'Add connection' }).click();
  await expect.element(page.getByText('This registry publishes no transparency log: the desk cannot verify its history.')).toBeVisible();
  // another address is reviewed again
  await page.getByLabelText('Registry address').fill('http://127.0.0.1:4011');
  await expect.element(page.getByRole('button', { name: 'Add connection' })).toBeVisible();
  await page.getByLabelText('Registry address').fill('http://127.0.0.1:4010');
  await page.getByRole('button', { name: 'Confirm and add' }).click();
  await expect.poll(() => done).toEqual(['Partner registry']);
  expect(addRemoteCalls()).toMatchObject([{ logKey: null }]);
});
