// Requests asked ahead for the seed steps of one pass (pass-steps.ts). Over a network every step
// began with a round trip of its own once the step before it had written: a list's first page, the
// three inventories, a warehouse's inventory. A step whose requests do not depend on an earlier
// step's writes now has them asked while the earlier steps run; when its turn comes it asks the same
// calls as always and gets the answers already in (or on their way).
//
// Two views of one client: `asker` starts a call and keeps its answer for the pass; `taker` (the
// steps' client) hands a kept answer to the first identical call and sends any other. A call asked
// ahead that the step never makes (its plan changed meanwhile) costs a request, never a wrong
// answer: nothing matches it, and the step asks for what it needs. Both go through the same
// client, so its gate (the cap on requests in flight, 429/503 Retry-After) holds for all of them.
import type { EndpointId } from '@shared/registry/endpoints';
import type { CallInput, RawAnswer, RegistryClient } from '../client/registry-client';
import type { ClientResponse } from '../client/responses';

/** What a kept answer took, asked to answered (ms): a step timing its requests reads it (paged-lists.ts). */
const answerTimes = new WeakMap<object, number>();

/** How long `answer` took to come, if it was asked ahead (its wait in the step says nothing of the link). */
export function askedAheadMs(answer: object): number | undefined {
  return answerTimes.get(answer);
}

export interface Prefetch {
  /** Calls here are asked now and kept for the pass's steps. */
  asker: RegistryClient;
  /** The steps' client: a call asked ahead is answered from what was kept, once. */
  taker: RegistryClient;
  /**
   * Keeps an answer already in, as if it had been asked ahead (`tookMs`: asked to answered): the
   * internal list's page the pass asked to learn the examiner grant (pass.ts) is its step's first.
   */
  adopt(id: EndpointId, input: CallInput<EndpointId>, answer: RawAnswer, tookMs: number): void;
  /** Calls asked ahead and not yet taken. */
  kept(): number;
  /** Waits until every call asked ahead has settled (nothing of the pass is in flight after it); drops them. */
  settle(): Promise<void>;
}

type Method = 'call' | 'callRaw' | 'callBytes';

/** The same text for the same call, whatever order its input's keys were written in. */
function callKey(method: Method, id: EndpointId, input: CallInput<EndpointId> | undefined): string {
  const sorted = (value: unknown): unknown =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  return JSON.stringify([method, id, sorted(input ?? {})]);
}

export function createPrefetch(client: RegistryClient): Prefetch {
  const kept = new Map<string, Promise<unknown>>();
  const all: Promise<unknown>[] = [];

  function ask(method: Method, id: EndpointId, input: CallInput<EndpointId> | undefined, send: () => Promise<object>) {
    const key = callKey(method, id, input);
    const known = kept.get(key);
    if (known) return known;
    const asked = performance.now();
    const answer = send().then((result) => {
      answerTimes.set(result, performance.now() - asked);
      return result;
    });
    // A failure is the step's to see, when (if) it takes the call; until then it is not unhandled.
    answer.catch(() => undefined);
    kept.set(key, answer);
    all.push(answer);
    return answer;
  }

  function take<T>(method: Method, id: EndpointId, input: CallInput<EndpointId> | undefined, send: () => Promise<T>): Promise<T> {
    const key = callKey(method, id, input);
    const known = kept.get(key);
    if (!known) return send();
    kept.delete(key);
    return known as Promise<T>;
  }

  // The `into` buffers of callBytes are the caller's (and so is what its `watch` is told): a call
  // that names them is never asked ahead.
  const asker: RegistryClient = {
    ...client,
    call: <K extends EndpointId>(id: K, input?: CallInput<K>) =>
      ask('call', id, input, () => client.call(id, input)) as Promise<ClientResponse<K>>,
    callRaw: (id, input) => ask('callRaw', id, input, () => client.callRaw(id, input)) as ReturnType<RegistryClient['callRaw']>,
    callBytes: (id, input, into, watch) =>
      into
        ? client.callBytes(id, input, into, watch)
        : (ask('callBytes', id, input, () => client.callBytes(id, input)) as ReturnType<RegistryClient['callBytes']>),
  };
  const taker: RegistryClient = {
    ...client,
    call: <K extends EndpointId>(id: K, input?: CallInput<K>) =>
      take('call', id, input as CallInput<EndpointId>, () => client.call<K>(id, input)),
    callRaw: (id, input) => take('callRaw', id, input, () => client.callRaw(id, input)),
    callBytes: (id, input, into, watch) =>
      into ? client.callBytes(id, input, into, watch) : take('callBytes', id, input, () => client.callBytes(id, input)),
  };
  return {
    asker,
    taker,
    adopt(id, input, answer, tookMs) {
      const key = callKey('callRaw', id, input);
      if (kept.has(key)) return;
      answerTimes.set(answer, tookMs);
      const settled = Promise.resolve(answer);
      kept.set(key, settled);
      all.push(settled);
    },
    kept: () => kept.size,
    async settle() {
      // An answer may ask more (a list's first page, its next ones): settled until none came.
      for (let settled = -1; settled !== all.length;) {
        settled = all.length;
        await Promise.all(all.map((p) => p.catch(() => undefined)));
      }
      kept.clear();
      all.length = 0;
    },
  };
}
