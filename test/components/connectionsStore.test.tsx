// The connections list as the page keeps it, with a desk whose answers come back out of order (two
// "Use this connection" presses in quick succession through the web host): the list shown is the
// answer to the last load asked, never an older one that came back late.
import { expect, it } from 'vitest';
import type { DeskOutput } from '@shared/desk/api';
import { useConnections } from '@renderer/stores/connections';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

type List = DeskOutput<'connections.list'>;
const connection = (id: string) => ({
  id,
  name: `Registry ${id}`,
  kind: 'remote' as const,
  baseUrl: `http://127.0.0.1:40${id.length}`,
  appId: '272471e8-0925-46d0-ad37-650d2a6b9726',
  keyStatus: 'ok' as const,
  secretStore: 'keychain' as const,
  examinerRead: false,
  installations: [],
});
const listWith = (activeId: string): List => ({
  activeId,
  connections: [connection('a'), connection('bb')],
  keychain: { available: true },
});

it('shows the answer of the last load asked, not an older one that comes back later', async () => {
  const answers: ((list: List) => void)[] = [];
  desk.answer('connections.list', () => new Promise<List>((resolve) => answers.push(resolve)));
  useConnections.setState({ list: listWith('a'), switches: 0 });

  const first = useConnections.getState().load(); // asked while "a" was still in use
  const second = useConnections.getState().load(); // asked after "bb" was put in use
  await expect.poll(() => answers.length).toBe(2);
  answers[1]!(listWith('bb'));
  await second;
  answers[0]!(listWith('a'));
  await first;

  expect(useConnections.getState().list?.activeId).toBe('bb');
  expect(useConnections.getState().active()?.id).toBe('bb');
  expect(useConnections.getState().switches).toBe(1);
  expect(useConnections.getState().loading).toBe(false);
});
