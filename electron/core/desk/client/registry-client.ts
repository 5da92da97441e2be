// The desk's typed registry client, built from the shared endpoint table: it fills paths, checks
// what it sends against the table's schemas, picks the right token, retries what is safe to retry,
// and checks every answer against the tolerant resource schemas (unknown fields are dropped).
import { setTimeout as delay } from 'node:timers/promises';
import { endpoints, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { readBytes, readText } from './answer-body';
import { parseAnswer } from './answer-checks';
import type { CallInput, RegistryClient, RegistryClientOptions } from './call-types';
import { createClockOffsets } from './clock-offsets';
import { filenameFromDisposition } from './content-disposition';
import { RegistryClientError } from './errors';
import { fetchTransport, httpError, isLoopbackUrl, sendHttp, type HttpAnswer, type HttpRequest, type HttpTransport } from './http';
import { prepareRequest } from './prepare-request';
import type { ClientResponse, DownloadedFile } from './responses';
import { createRequestGate, GATE_CAP, GATE_FLOOR } from './request-gate';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from './retry';
import type { TokenScope } from './tokens';

// Where the desk imported these from before the client was split by purpose.
export { answerBreaksContract, answerNotJson } from './answer-checks';
export type { CallInput, RawAnswer, RawBytesAnswer, RegistryClient, RegistryClientOptions } from './call-types';
export { filenameFromDisposition } from './content-disposition';

export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  const viaFetch = fetchTransport(options.fetch ?? fetch);
  const transport = options.transport ?? viaFetch;
  // Once per client rather than once per request (it parses the URL).
  const loopback = options.compressed === undefined ? isLoopbackUrl(options.baseUrl) : !options.compressed;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
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
    sent?: () => void,
  ): Promise<{ result: T; endpoint: EndpointDefinition; scope: TokenScope | 'jwt' }> {
    const prepared = prepareRequest(id, input, timeoutMs);
    const { endpoint, scope } = prepared;
    const request = sent ? { ...prepared.request, sent } : prepared.request;
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
    async callBytes(id, input = {}, into = (size: number) => Buffer.allocUnsafeSlow(size), watch = {}) {
      const { result } = await exchange(
        id,
        input,
        async (response) => ({
          bytes: await readBytes(response, id, into, watch.arrived),
          status: response.status,
          headers: response.headers,
        }),
        viaFetch,
        watch.sent,
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
