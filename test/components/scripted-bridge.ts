// The desk, as the dialogs under test see it: `window.registryDesk`, answering each method with what
// the test scripted. Every call is checked against the desk contract (shared/desk/api.ts) on the
// way in, and every scripted answer on the way out, so the dialogs are tested against the real
// contract, and `calls` records exactly what they sent.
import {
  deskApi,
  deskEvent,
  type DeskBridge,
  type DeskError,
  type DeskEvent,
  type DeskInput,
  type DeskMethod,
  type DeskOutput,
  type DeskResult,
  type PickedKey,
} from '@shared/desk/api';

type Answer<M extends DeskMethod> = (input: unknown) => DeskOutput<M> | DeskError | Promise<DeskOutput<M> | DeskError>;

export interface ScriptedBridge {
  readonly calls: { method: DeskMethod; input: unknown }[];
  /** What `method` answers from now on: a value (checked against the contract) or a DeskError. */
  answer<M extends DeskMethod>(method: M, answer: Answer<M>): void;
  /** Sends `event` to the page's listeners, as the desk's event channel does (checked against the contract). */
  emit(event: DeskEvent): void;
  /** How many listeners the page has attached to the event channel (it attaches once it found the bridge). */
  readonly listening: number;
  /** How the desk reads a key file the page hands over (DeskBridge.importKeyFile): none picked by default. */
  importKeyFile(read: (file?: Blob & { name?: string }) => Promise<PickedKey | null>): void;
  /** How the host saves a file the desk made (DeskBridge.saveFile): not saved by default. */
  saveFile(save: DeskBridge['saveFile']): void;
  /** How many calls of `method` have been answered so far. */
  answered(method: DeskMethod): number;
  /** Forgets every call and answer (between tests). */
  reset(): void;
}

export const deskError = (code: DeskError['code'], message: string): DeskError => ({ code, message });
const isDeskError = (value: unknown): value is DeskError =>
  typeof value === 'object' && value !== null && 'code' in value && 'message' in value && !('ok' in value);

/** Installs the bridge once per test file: the renderer's lib/desk keeps the first bridge it finds. */
export function installScriptedBridge(): ScriptedBridge {
  const calls: { method: DeskMethod; input: unknown }[] = [];
  const answers = new Map<DeskMethod, Answer<DeskMethod>>();
  const listeners = new Set<(event: DeskEvent) => void>();
  const answeredCalls = new Map<DeskMethod, number>();
  const noKeyRead = async (_file?: Blob & { name?: string }): Promise<PickedKey | null> => null;
  let readKey = noKeyRead;
  const notSaved: DeskBridge['saveFile'] = async () => ({ saved: false });
  let save = notSaved;
  const bridge: DeskBridge = {
    host: 'web',
    async invoke<M extends DeskMethod>(method: M, input: DeskInput<M>): Promise<DeskResult<DeskOutput<M>>> {
      calls.push({ method, input });
      const checked = deskApi[method].input.safeParse(input);
      if (!checked.success) throw new Error(`${method} was sent input the desk contract refuses: ${checked.error.message}`);
      const answer = answers.get(method);
      if (!answer) throw new Error(`the test scripted no answer for ${method}`);
      const value = await answer(input);
      answeredCalls.set(method, (answeredCalls.get(method) ?? 0) + 1);
      if (isDeskError(value)) return { ok: false, error: value };
      return { ok: true, value: deskApi[method].output.parse(value) as DeskOutput<M> };
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    importKeyFile: (file) => readKey(file),
    saveFile: (file) => save(file),
  };
  // Where the renderer's getBridge() finds the Electron preload's bridge.
  (window as Window & { registryDesk?: DeskBridge }).registryDesk = bridge;
  return {
    calls,
    answer(method, answer) {
      answers.set(method, answer);
    },
    emit(event) {
      const checked = deskEvent.parse(event);
      for (const listener of listeners) listener(checked);
    },
    get listening() {
      return listeners.size;
    },
    importKeyFile(read) {
      readKey = read;
    },
    saveFile(saver) {
      save = saver;
    },
    answered: (method) => answeredCalls.get(method) ?? 0,
    reset() {
      readKey = noKeyRead;
      save = notSaved;
      calls.length = 0;
      answers.clear();
      answeredCalls.clear();
    },
  };
}
