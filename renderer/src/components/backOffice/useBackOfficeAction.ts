// One back-office write as the user confirms it: a new idempotency key per confirmed action (never
// per attempt), the desk's answer as "done", "refused: …" or "not sure: checking…" and then the
// settled answer. `unsure` is settled by re-sending the same key and body (the registry replays its
// answer or does the write once), a few times with growing waits; while it stays unknown the
// action says so and offers to check again, never to do it again.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BackOfficeData, BackOfficeWriteInput, OperatorWriteName } from '../../../../shared/desk/back-office';
import { desk, describeError } from '../../lib/desk';
import { announce } from '../../lib/signals';

export type BackOfficeActionState<E extends OperatorWriteName> =
  | { phase: 'idle' }
  | { phase: 'sending' }
  | { phase: 'done'; data: BackOfficeData<E> }
  | { phase: 'refused'; status: number; message: string }
  /** No answer yet: the desk is checking (settle) with the same key. */
  | { phase: 'checking'; message: string }
  /** Still unknown after the checks: `check()` tries again. */
  | { phase: 'unsure'; message: string }
  /** The desk did not send it (offline, invalid input): nothing changed. */
  | { phase: 'failed'; message: string };

export interface BackOfficeActionRequest {
  params?: Record<string, string>;
  body?: unknown;
}

/** Waits before each settle while the outcome stays unknown (ms). */
export const SETTLE_WAITS_MS = [500, 1_500, 4_000, 10_000];

/** The line a screen shows for an action's state (null while idle). */
export function actionStatusText(state: BackOfficeActionState<OperatorWriteName>): string | null {
  switch (state.phase) {
    case 'idle':
      return null;
    case 'sending':
      return 'Sending…';
    case 'done':
      return 'Done';
    case 'refused':
      return `Refused: ${state.message}`;
    case 'checking':
      return 'Not sure: checking…';
    case 'unsure':
      return `Not sure: ${state.message}`;
    case 'failed':
      return `Not done: ${state.message}`;
  }
}

const newKey = () => crypto.randomUUID();

export function useBackOfficeAction<E extends OperatorWriteName>(endpoint: E) {
  const [state, setState] = useState<BackOfficeActionState<E>>({ phase: 'idle' });
  /** The state as last set (the rendered `state` can be a render behind a quick second submit). */
  const latest = useRef<BackOfficeActionState<E>>({ phase: 'idle' });
  const pending = useRef<BackOfficeWriteInput | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const update = useCallback(
    (next: BackOfficeActionState<E>) => {
      if (!alive.current) return;
      latest.current = next;
      setState(next);
      if (next.phase !== 'idle' && next.phase !== 'sending' && next.phase !== 'checking')
        announce('desk:back-office-action', { endpoint, phase: next.phase });
    },
    [endpoint],
  );

  const settle = useCallback(async (input: BackOfficeWriteInput): Promise<BackOfficeActionState<E>> => {
    for (const wait of SETTLE_WAITS_MS) {
      await new Promise((resolve) => window.setTimeout(resolve, wait));
      if (!alive.current) break;
      try {
        const answer = await desk('backOffice.settle', input);
        if (answer.outcome === 'done') return { phase: 'done', data: answer.data as BackOfficeData<E> };
        if (answer.outcome === 'refused') return { phase: 'refused', status: answer.status, message: answer.message };
      } catch {
        // Offline, or the desk did not answer: still unknown; the next check tries again.
      }
    }
    return {
      phase: 'unsure',
      message: 'the registry has not answered yet. Check again once it can be reached; the change can only be made once.',
    };
  }, []);

  /** Checks an `unsure` action again (same key, same body). */
  const check = useCallback(async (): Promise<BackOfficeActionState<E> | null> => {
    const input = pending.current;
    if (!input) return null;
    update({ phase: 'checking', message: 'checking again' });
    const final = await settle(input);
    update(final);
    return final;
  }, [settle, update]);

  /**
   * Sends the confirmed action (a new key); resolves to its final state. While the last one is
   * still sending, or its outcome unknown, nothing new is sent: a second key could make the change
   * twice. An unknown one is checked again instead (its own key and body).
   */
  const run = useCallback(
    async (request: BackOfficeActionRequest = {}): Promise<BackOfficeActionState<E>> => {
      const last = latest.current;
      if (last.phase === 'sending' || last.phase === 'checking') return last;
      if (last.phase === 'unsure' && pending.current) return (await check()) ?? last;
      const input: BackOfficeWriteInput = { endpoint, ...request, idempotencyKey: newKey() };
      pending.current = input;
      update({ phase: 'sending' });
      let final: BackOfficeActionState<E>;
      try {
        const answer = await desk('backOffice.write', input);
        if (answer.outcome === 'done') final = { phase: 'done', data: answer.data as BackOfficeData<E> };
        else if (answer.outcome === 'refused') final = { phase: 'refused', status: answer.status, message: answer.message };
        else {
          update({ phase: 'checking', message: answer.message });
          final = await settle(input);
        }
      } catch (error) {
        final = { phase: 'failed', message: describeError(error) };
      }
      update(final);
      return final;
    },
    [endpoint, settle, update, check],
  );

  const reset = useCallback(() => {
    pending.current = null;
    update({ phase: 'idle' });
  }, [update]);

  return {
    endpoint,
    state,
    run,
    check,
    reset,
    busy: state.phase === 'sending' || state.phase === 'checking',
    statusText: actionStatusText(state),
  };
}

export type BackOfficeAction<E extends OperatorWriteName> = ReturnType<typeof useBackOfficeAction<E>>;
