// One back-office write as the user confirms it: a new idempotency key per confirmed action (never
// per attempt), the desk's answer as "done", "refused: …" or "not sure: checking…" and then the
// settled answer. `unsure` is settled by re-sending the same key and body (the registry replays its
// answer or does the write once), a few times with growing waits; while it stays unknown the
// action says so and offers to check again, never to do it again. An unknown write outlives its
// dialog: the same change confirmed again (after Back, or a closed and reopened dialog) is checked
// under its first key instead of being sent under a new one, which could make it twice.
import { useCallback, useRef, useState } from 'react';
import { canonicalJson } from '@shared/canonical-json';
import type { BackOfficeData, BackOfficeWriteInput, BackOfficeWriteOutput, OperatorWriteName } from '@shared/desk/back-office';
import { desk, describeError } from '@renderer/lib/desk';
import { announce } from '@renderer/lib/signals';
import { useConnections } from '@renderer/stores/connections';
import { useMounted } from '../useMounted';

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

/**
 * Writes sent whose outcome is not known yet (in flight, or `unsure`), by what they change: the
 * registry in use, the endpoint, its parameters and body. Kept for the page's life, as long as the
 * registry keeps an idempotency key (24 hours) at most matters.
 */
const unsettledWrites = new Map<string, BackOfficeWriteInput>();

function writeIdentity(endpoint: OperatorWriteName, request: BackOfficeActionRequest): string {
  const registry = useConnections.getState().list?.activeId ?? '';
  return canonicalJson([registry, endpoint, request.params ?? {}, request.body ?? null]);
}

/** The action's state for an answer whose outcome is known: done, or refused. */
function knownOutcome<E extends OperatorWriteName>(
  answer: Exclude<BackOfficeWriteOutput, { outcome: 'unsure' }>,
): BackOfficeActionState<E> {
  return answer.outcome === 'done'
    ? { phase: 'done', data: answer.data as BackOfficeData<E> }
    : { phase: 'refused', status: answer.status, message: answer.message };
}

/** Forgets a write once its outcome is known (only the entry of that very write). */
function settled(identity: string, input: BackOfficeWriteInput, final: { phase: string }): void {
  if (final.phase !== 'unsure' && unsettledWrites.get(identity) === input) unsettledWrites.delete(identity);
}

export function useBackOfficeAction<E extends OperatorWriteName>(endpoint: E) {
  const [state, setState] = useState<BackOfficeActionState<E>>({ phase: 'idle' });
  /** The state as last set (the rendered `state` can be a render behind a quick second submit). */
  const latest = useRef<BackOfficeActionState<E>>({ phase: 'idle' });
  const pending = useRef<{ identity: string; input: BackOfficeWriteInput } | null>(null);
  const alive = useMounted();

  const update = useCallback(
    (next: BackOfficeActionState<E>) => {
      if (!alive.current) return;
      latest.current = next;
      setState(next);
      if (next.phase !== 'idle' && next.phase !== 'sending' && next.phase !== 'checking')
        announce('desk:back-office-action', { endpoint, phase: next.phase });
    },
    [endpoint, alive],
  );

  const settle = useCallback(
    async (input: BackOfficeWriteInput): Promise<BackOfficeActionState<E>> => {
      for (const wait of SETTLE_WAITS_MS) {
        await new Promise((resolve) => window.setTimeout(resolve, wait));
        if (!alive.current) break;
        try {
          const answer = await desk('backOffice.settle', input);
          if (answer.outcome !== 'unsure') return knownOutcome<E>(answer);
        } catch {
          // Offline, or the desk did not answer: still unknown; the next check tries again.
        }
      }
      return {
        phase: 'unsure',
        message: 'the registry has not answered yet. Check again once it can be reached; the change can only be made once.',
      };
    },
    [alive],
  );

  /** Checks an `unsure` action again (same key, same body). */
  const check = useCallback(async (): Promise<BackOfficeActionState<E> | null> => {
    const write = pending.current;
    if (!write) return null;
    update({ phase: 'checking', message: 'checking again' });
    const final = await settle(write.input);
    settled(write.identity, write.input, final);
    update(final);
    return final;
  }, [settle, update]);

  /** Checks at once (same key, same body) a write sent before whose outcome is unknown. */
  const recheck = useCallback(
    async (input: BackOfficeWriteInput): Promise<BackOfficeActionState<E>> => {
      try {
        const answer = await desk('backOffice.settle', input);
        if (answer.outcome !== 'unsure') return knownOutcome<E>(answer);
      } catch {
        // Offline: still unknown, checked again below.
      }
      return settle(input);
    },
    [settle],
  );

  /**
   * Sends the confirmed action (a new key); resolves to its final state. While the last one is
   * still sending, or its outcome unknown, nothing new is sent: a second key could make the change
   * twice. An unknown one is checked again instead (its own key and body), and so is the same
   * change sent earlier from a dialog since closed, if its outcome is still unknown.
   */
  const run = useCallback(
    async (request: BackOfficeActionRequest = {}): Promise<BackOfficeActionState<E>> => {
      const last = latest.current;
      if (last.phase === 'sending' || last.phase === 'checking') return last;
      if (last.phase === 'unsure' && pending.current) return (await check()) ?? last;
      const identity = writeIdentity(endpoint, request);
      const earlier = unsettledWrites.get(identity);
      if (earlier) {
        pending.current = { identity, input: earlier };
        update({ phase: 'checking', message: 'the same change was sent before and its outcome is unknown: checking it' });
        const final = await recheck(earlier);
        settled(identity, earlier, final);
        update(final);
        return final;
      }
      const input: BackOfficeWriteInput = { endpoint, ...request, idempotencyKey: newKey() };
      pending.current = { identity, input };
      unsettledWrites.set(identity, input);
      update({ phase: 'sending' });
      let final: BackOfficeActionState<E>;
      try {
        const answer = await desk('backOffice.write', input);
        if (answer.outcome !== 'unsure') final = knownOutcome<E>(answer);
        else {
          update({ phase: 'checking', message: answer.message });
          final = await settle(input);
        }
      } catch (error) {
        final = { phase: 'failed', message: describeError(error) };
      }
      settled(identity, input, final);
      update(final);
      return final;
    },
    [endpoint, settle, update, check, recheck],
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
