// The back-office store: the last answer of every operator read the desk made, keyed by the request
// (endpoint, path parameters, query), so that when the registry cannot be reached the same view is
// answered as it was last read, marked with its time. This is the in-memory store (one desk run);
// the cache's back-office tables implement the same interface across restarts.
import type { BackOfficeOperator, OperatorReadName } from '../../../../shared/desk/back-office';

export interface BackOfficeRequest {
  endpoint: OperatorReadName;
  params?: Record<string, string> | undefined;
  query?: Record<string, string | number> | undefined;
}

export interface SavedAnswer {
  key: string;
  endpoint: OperatorReadName;
  call: { params: Record<string, string>; query: Record<string, string | number> };
  data: unknown;
  fetchedAt: number;
}

export interface BackOfficeStore {
  get(key: string): SavedAnswer | null;
  put(request: BackOfficeRequest, data: unknown, fetchedAt: number): void;
  /** Every saved answer (to re-read them after a write). */
  entries(): SavedAnswer[];
  /** When the newest answer was read from the registry, null before any. */
  latestFetchedAt(): number | null;
  /** The operator account last confirmed for this connection. */
  operator(): BackOfficeOperator | null;
  rememberOperator(operator: BackOfficeOperator): void;
}

function sorted<T>(record: Record<string, T> | undefined): [string, T][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One spelling per request: the same view asked twice has the same key, whatever the order of its fields. */
export function requestKey(request: BackOfficeRequest): string {
  // Query values as the URL carries them (text): page=0 and page="0" are one request.
  const query = sorted(request.query).map(([name, value]) => [name, String(value)]);
  return JSON.stringify([request.endpoint, sorted(request.params), query]);
}

export function createMemoryBackOfficeStore(): BackOfficeStore {
  const answers = new Map<string, SavedAnswer>();
  let self: BackOfficeOperator | null = null;
  return {
    get: (key) => answers.get(key) ?? null,
    put(request, data, fetchedAt) {
      const key = requestKey(request);
      answers.set(key, {
        key,
        endpoint: request.endpoint,
        call: { params: { ...request.params }, query: { ...request.query } },
        data,
        fetchedAt,
      });
    },
    entries: () => [...answers.values()],
    latestFetchedAt() {
      let latest: number | null = null;
      for (const answer of answers.values()) if (latest === null || answer.fetchedAt > latest) latest = answer.fetchedAt;
      return latest;
    },
    operator: () => self,
    rememberOperator(operator) {
      self = operator;
    },
  };
}
