// The desk's typed registry client, built from the shared endpoint table: it fills paths, checks
// what it sends against the table's schemas, picks the right token, retries what is safe to retry,
// and checks every answer against the tolerant resource schemas (unknown fields are dropped).
import { randomUUID } from 'node:crypto';
import { endpoints, fillPath, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { answerBreaksContract, answerNotJson, invalidRequest, responseSchema } from './answer-checks';
import type { CallInput, RegistryClient, RegistryClientOptions } from './call-types';
import { filenameFromDisposition } from './content-disposition';
import { RegistryClientError } from './errors';
import { fetchTransport, httpError, isLoopbackUrl, sendHttp, type HttpAnswer, type HttpRequest, type HttpTransport } from './http';
import type { ClientResponse, DownloadedFile } from './responses';
import { createRequestGate, GATE_CAP, GATE_FLOOR } from './request-gate';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from './retry';
import type { TokenScope } from './tokens';

// Where the desk imported these from before the client was split by purpose.
export { answerBreaksContract, answerNotJson } from './answer-checks';
export type { CallInput, RawAnswer, RawBytesAnswer, RegistryClient, RegistryClientOptions } from './call-types';
export { filenameFromDisposition } from './content-disposition';

const sleepReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A call checked against the table and made ready to send: its request, without the bearer, and whose token it needs. */
export function prepareRequest<K extends EndpointId>(id: K, input: CallInput<K>, defaultTimeoutMs: number) {
  const endpoint = endpoints[id] as unknown as EndpointDefinition;
  const params = endpoint.params.safeParse(input.params ?? {});
  if (!params.success) throw invalidRequest(id, 'params', params.error.issues);
  const wireQuery: Record<string, string> = {};
  for (const [name, value] of Object.entries<string | number | undefined>(input.query ?? {}))
    if (value !== undefined) wireQuery[name] = String(value);
  const query = endpoint.query.safeParse(wireQuery);
  if (!query.success) throw invalidRequest(id, 'query', query.error.issues);
  let body: unknown;
  if (endpoint.body) {
    const parsed = endpoint.body.safeParse(input.body ?? {});
    if (!parsed.success) throw invalidRequest(id, 'body', parsed.error.issues);
    // Operator bodies go as given: their schemas are the operations' inputs, whose output is not
    // wire form (dates become epoch milliseconds), and the registry parses them itself.
    body = endpoint.auth.kind === 'operator' ? (input.body ?? {}) : (parsed.data ?? {});
  }
  const path = fillPath(endpoint.path, params.data as Record<string, string>);
  const auth = endpoint.auth;
  let scope: TokenScope | 'jwt';
  if (auth.kind === 'appJwt') scope = 'jwt';
  else if (auth.kind === 'operatorJwt') {
    throw new RegistryClientError('invalid_request', `${id}: operator tokens come from the token manager`, { endpoint: id });
  } else if (auth.kind === 'operator') scope = { kind: 'operator' };
  else if (input.installationId) scope = { kind: 'installation', installationId: input.installationId };
  else if (auth.organizationParam) {
    throw new RegistryClientError('invalid_request', `${id}: needs the installationId of the organization`, { endpoint: id });
  } else scope = { kind: 'app' };
  const request: Omit<HttpRequest, 'bearer'> = {
    method: endpoint.method,
    path,
    query: wireQuery,
    body,
    timeoutMs: input.timeoutMs ?? defaultTimeoutMs,
    endpoint: id,
  };
  // Operator writes carry an Idempotency-Key (the caller's, or a new one reused by every retry of
  // this call), so a retry after a lost answer is answered from the registry's record, never run twice.
  if (endpoint.audit !== undefined) request.idempotencyKey = input.idempotencyKey ?? randomUUID();
  return { endpoint, request, scope };
}

/** Parses and checks an answer's text as endpoint `id` answers it. */
export function parseAnswer<K extends EndpointId>(id: K, text: string): ClientResponse<K> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw answerNotJson(id);
  }
  const result = responseSchema(id).safeParse(json);
  if (!result.success) {
    throw answerBreaksContract(id, result.error.issues);
  }
  return result.data as ClientResponse<K>;
}

export async function readText(response: HttpAnswer, id: EndpointId): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new RegistryClientError('network', `${id}: the answer was cut off`, { endpoint: id, cause: error });
  }
}

export async function readBytes(response: HttpAnswer, id: EndpointId, into: (size: number) => Buffer): Promise<Buffer> {
  try {
    // Copied chunk by chunk into the caller's buffer (its Content-Length's size, then larger as
    // needed), never held as chunks and a whole copy of them at once.
    const declared = Number(response.headers.get('content-length'));
    let buffer = into(Number.isSafeInteger(declared) && declared > 0 ? declared : 1 << 16);
    let size = 0;
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
      const chunk = read.value;
      if (size + chunk.length > buffer.length) {
        const larger = into(Math.max(size + chunk.length, buffer.length * 2));
        buffer.copy(larger, 0, 0, size);
        buffer = larger;
      }
      buffer.set(chunk, size);
      size += chunk.length;
    }
    return buffer.subarray(0, size);
  } catch (error) {
    throw new RegistryClientError('network', `${id}: the answer was cut off`, { endpoint: id, cause: error });
  }
}

/** registry clock − desk clock, from the Date header of the last few answers. */
export function createClockOffsets() {
  const offsets: number[] = [];
  return {
    record(response: HttpAnswer, sentAt: number, receivedAt: number) {
      const date = response.headers.get('date');
      const registryTime = date ? Date.parse(date) : NaN;
      if (!Number.isFinite(registryTime)) return;
      // The Date header has whole seconds: take the middle of the exchange and keep a few samples.
      offsets.push(registryTime + 500 - (sentAt + receivedAt) / 2);
      if (offsets.length > 7) offsets.shift();
    },
    /** The median offset in ms; null before any answer with a Date header. */
    median(): number | null {
      if (offsets.length === 0) return null;
      const sorted = [...offsets].sort((a, b) => a - b);
      return Math.round(sorted[Math.floor(sorted.length / 2)]!);
    },
  };
}

export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  const viaFetch = fetchTransport(options.fetch ?? fetch);
  const transport = options.transport ?? viaFetch;
  // Once per client rather than once per request (it parses the URL).
  const loopback = options.compressed === undefined ? isLoopbackUrl(options.baseUrl) : !options.compressed;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const sleep = options.sleep ?? sleepReal;
  const random = options.random ?? Math.random;
  const offsets = createClockOffsets();
  const gate = createRequestGate({ ...options.gate, sleep });

  async function attempt(
    request: Omit<HttpRequest, 'bearer'>,
    scope: TokenScope | 'jwt',
    via: HttpTransport,
  ): Promise<{ response: HttpAnswer; bearer: string }> {
    const bearer = scope === 'jwt' ? await options.tokens.appJwt() : await options.tokens.get(scope);
    const sentAt = options.clock.now();
    const response = await sendHttp(via, options.baseUrl, { ...request, bearer }, loopback);
    offsets.record(response, sentAt, options.clock.now());
    if (!response.ok) throw Object.assign(await httpError(response, request), { bearerUsed: bearer });
    return { response, bearer };
  }

  /**
   * One call: sent (and retried) through the gate, its answer's body read by `read` while its slot
   * is held, so the gate times whole exchanges. A body cut off is not retried (as before).
   */
  async function exchange<T>(
    id: EndpointId,
    input: CallInput<EndpointId>,
    read: (response: HttpAnswer) => Promise<T>,
    via = transport,
  ): Promise<{ result: T; endpoint: EndpointDefinition; scope: TokenScope | 'jwt' }> {
    const { endpoint, request, scope } = prepareRequest(id, input, timeoutMs);
    let authRetried = false;
    for (let attemptNo = 1; ; attemptNo++) {
      let outcome: { result: T } | { readFailed: unknown };
      try {
        outcome = await gate.run(async () => {
          const { response } = await attempt(request, scope, via);
          try {
            return { result: await read(response) };
          } catch (error) {
            return { readFailed: error };
          }
        });
      } catch (error) {
        if (!(error instanceof RegistryClientError)) throw error;
        // A refused access token (expired early, revoked): drop it and try once with a new one.
        if (error.kind === 'http' && error.status === 401 && scope !== 'jwt' && !authRetried) {
          authRetried = true;
          options.tokens.invalidate(scope, (error as { bearerUsed?: string }).bearerUsed);
          attemptNo--;
          continue;
        }
        // Too many requests, or a registry out of breath: fewer in flight, none until Retry-After.
        if (error.kind === 'timeout' || (error.kind === 'http' && (error.status === 429 || error.status === 503)))
          gate.backOff(error.retryAfterS === undefined ? undefined : error.retryAfterS * 1000);
        if (attemptNo >= policy.maxAttempts || !isRetryable(error, request.idempotencyKey !== undefined ? 'GET' : request.method))
          throw error;
        const delay = retryDelayMs(error, attemptNo, policy, random);
        if (delay === undefined) throw error;
        await sleep(delay);
        continue;
      }
      if ('readFailed' in outcome) throw outcome.readFailed;
      return { result: outcome.result, endpoint, scope };
    }
  }

  return {
    tokens: options.tokens,
    baseUrl: options.baseUrl,
    parse: parseAnswer,
    clockOffsetMs: () => offsets.median(),
    gateStats: () => gate.stats(),
    maxInFlight: Math.max(options.gate?.floor ?? GATE_FLOOR, options.gate?.cap ?? GATE_CAP),
    async callRaw(id, input = {}) {
      const { result } = await exchange(id, input, async (response) => ({
        text: await readText(response, id),
        status: response.status,
        headers: response.headers,
      }));
      return result;
    },
    async callBytes(id, input = {}, into = (size: number) => Buffer.allocUnsafeSlow(size)) {
      const { result } = await exchange(
        id,
        input,
        async (response) => ({ bytes: await readBytes(response, id, into), status: response.status, headers: response.headers }),
        viaFetch,
      );
      return result;
    },
    async call(id, input = {}) {
      const pdf = (endpoints[id] as unknown as EndpointDefinition).responseType === 'pdf';
      const { result, scope } = await exchange(id, input, async (response) => {
        if (!pdf) return readText(response, id);
        const file: DownloadedFile = {
          bytes: new Uint8Array(await response.arrayBuffer()),
          filename: filenameFromDisposition(response.headers.get('content-disposition'), 'certificate.pdf'),
          contentType: response.headers.get('content-type') ?? 'application/pdf',
        };
        return file;
      });
      if (typeof result !== 'string') return result as ClientResponse<typeof id>;
      const answer = parseAnswer(id, result);
      // A revoked token must not be handed out again.
      if (id === 'revokeAccessToken' && scope !== 'jwt') options.tokens.invalidate(scope);
      return answer;
    },
  };
}
