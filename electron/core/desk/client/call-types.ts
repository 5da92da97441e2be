// What the desk's registry client takes and gives: a call's input, its raw answers, the client's
// options and the client itself.
import type { z } from 'zod';
import type { endpoints, EndpointId } from '@shared/registry/endpoints';
import type { Clock } from '@platform/clock';
import type { FetchLike, HttpAnswer, HttpTransport } from './http';
import type { ClientResponse } from './responses';
import type { GateStats, RequestGateOptions } from './request-gate';
import type { RetryPolicy } from './retry';
import type { TokenManager } from './tokens';

type QueryInputOf<K extends EndpointId> = z.input<(typeof endpoints)[K]['query']>;
type BodyOf<K extends EndpointId> = z.input<NonNullable<(typeof endpoints)[K]['body']>>;

export interface CallInput<K extends EndpointId> {
  params?: z.input<(typeof endpoints)[K]['params']>;
  /** Query values as numbers or strings; they are sent as text. */
  query?: { [P in keyof QueryInputOf<K>]?: string | number };
  body?: BodyOf<K>;
  /** Call with this installation's token (required where the endpoint names an organization). */
  installationId?: string;
  /** Operator writes: the Idempotency-Key to send (a new one per call when absent). */
  idempotencyKey?: string;
  /** This call's timeout (answer included), instead of the client's (a changes-feed page can be tens of MB). */
  timeoutMs?: number;
}

/** What `callRaw` returns: the answer's text, before JSON parsing and validation. */
export interface RawAnswer {
  text: string;
  status: number;
  headers: HttpAnswer['headers'];
}

/** What `callBytes` returns: the answer's bytes as sent (UTF-8 for JSON), before decoding. */
export interface RawBytesAnswer {
  bytes: Buffer;
  status: number;
  headers: HttpAnswer['headers'];
}

/** What a caller of `callBytes` is told as its exchange goes on. */
export interface ExchangeWatch {
  /** The request has left for the registry (at the latest when the answer is back; possibly twice). */
  sent?: () => void;
  /** The answer's bytes received so far, after each piece (a view of the caller's buffer). */
  arrived?: (sofar: Buffer) => void;
}

export interface RegistryClientOptions {
  baseUrl: string;
  tokens: TokenManager;
  clock: Clock;
  fetch?: FetchLike;
  /**
   * How requests are sent (node-http.ts's transportFor, say); fetch (`fetch` or the global one) when
   * absent. `callBytes` (answers of many MB read piece by piece: the feed's pages) always uses fetch:
   * through node:http the feed's first sync at --scale 100 was slower (bench/README.md, sync).
   */
  transport?: HttpTransport;
  timeoutMs?: number;
  /**
   * Ask for gzip or brotli answers. By default only of a registry elsewhere: on this machine
   * compressing costs both ends CPU and saves no wire time (client/http.ts isLoopbackUrl).
   */
  compressed?: boolean;
  retry?: Partial<RetryPolicy>;
  /** Requests in flight to this registry: at first and at least (floor), at most (cap); see request-gate.ts. */
  gate?: Pick<RequestGateOptions, 'floor' | 'cap' | 'now'>;
  /** Waits between attempts; injectable so tests can observe the waits. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RegistryClient {
  call<K extends EndpointId>(id: K, input?: CallInput<K>): Promise<ClientResponse<K>>;
  /** The answer's text, for callers that hash pages before parsing them (the sync engine). */
  callRaw<K extends EndpointId>(id: K, input?: CallInput<K>): Promise<RawAnswer>;
  /**
   * The answer's bytes, for callers that decode it piece by piece (the changes feed's pages): read
   * into the buffer `into` answers for a size (a new one by default; asked again, larger, when the
   * answer outgrows it, the contents then copied over), so a caller can reuse its buffers.
   * `watch` follows the exchange (the feed's pipeline: where the next page starts, from a page's
   * first bytes; whether its request has left before the thread is held by a long write).
   */
  callBytes<K extends EndpointId>(
    id: K,
    input?: CallInput<K>,
    into?: (size: number) => Buffer,
    watch?: ExchangeWatch,
  ): Promise<RawBytesAnswer>;
  /** Parses and checks text from `callRaw` as endpoint `id` answers it. */
  parse<K extends EndpointId>(id: K, text: string): ClientResponse<K>;
  /** registry clock − desk clock in ms, from the Date header of recent answers; null before any. */
  clockOffsetMs(): number | null;
  /** How many requests the client keeps in flight to this registry now, and has at most. */
  gateStats(): GateStats;
  /** The most requests ever in flight at once (callers may queue this many: the gate decides when each goes). */
  readonly maxInFlight: number;
  readonly tokens: TokenManager;
  readonly baseUrl: string;
}
