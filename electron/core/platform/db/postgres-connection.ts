// The main libpq connection of a PostgreSQL process (its reads that do not block it have their own:
// postgres-read-pool.ts), which outlives the database it talks to. A
// database restart, a terminated backend or a cut network breaks it; the statement that finds out
// reports the database as unavailable (DatabaseUnavailableError: 503 with Retry-After over HTTP),
// and the next statement run outside a transaction opens a new connection, no sooner than a capped
// backoff allows (so an outage costs each request one failed connect at most, and the process serves
// again within about a second of the database being back). Never reconnects inside a transaction: the
// transaction died with the old connection, and its remaining statements must not run elsewhere.
import { DatabaseUnavailableError } from './database-errors';

/** The part of pg-native (and its libpq handle) the engine uses. */
export interface NativeClient {
  connectSync(url: string): void;
  connect(url: string, done: (error?: Error) => void): void;
  querySync(text: string, values?: unknown[]): Record<string, unknown>[];
  end(): void;
  /** pg-native's reading of the handle's current result (its rows, parsed by the client's types). */
  _consumeQueryResults(pq: NativeClient['pq']): { rows: Record<string, unknown>[] };
  pq: {
    cmdTuples(): string;
    transactionStatus(): number;
    resultErrorFields(): { sqlState?: string; messagePrimary?: string; messageDetail?: string } | undefined;
    resultErrorMessage(): string;
    resultStatus(): string;
    errorMessage(): string;
    sendQuery(text: string): boolean;
    /** PQescapeLiteral: `text` as a quoted literal, by this connection's quoting rules. */
    escapeLiteral(text: string): string;
    sendQueryParams(text: string, values: unknown[]): boolean;
    sendPrepare(name: string, text: string, nParams: number): boolean;
    sendQueryPrepared(name: string, values: unknown[]): boolean;
    /** libpq's pipeline mode (postgres-pipeline.ts): enter and leave it, and end a pipeline with a Sync. */
    enterPipelineMode(): boolean;
    exitPipelineMode(): boolean;
    pipelineSync(): boolean;
    consumeInput(): boolean;
    isBusy(): boolean;
    getResult(): boolean;
    ntuples(): number;
    nfields(): number;
    fname(field: number): string;
    ftype(field: number): number;
    getvalue(row: number, field: number): string;
    getisnull(row: number, field: number): boolean;
    connected?: boolean;
    finish(): void;
    /** PQsocket: the connection's socket descriptor, -1 once libpq has closed it. */
    socket(): number;
    /** libuv watches the socket and emits 'readable' when data arrives, until stopReader(). */
    startReader(): void;
    stopReader(): void;
    on(event: 'readable', listener: () => void): unknown;
  };
}

/** libpq's PQTRANS_UNKNOWN: what transactionStatus() answers once the connection is bad. */
const CONNECTION_BAD = 4;
/** admin_shutdown (pg_terminate_backend, a fast or immediate stop), crash_shutdown, cannot_connect_now. */
const LOST_CODES = new Set(['57P01', '57P02', '57P03']);
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 1000;
/**
 * How long a connect may take before the database counts as unreachable (libpq's connect_timeout;
 * 2 s is its least). A connect blocks the process like any statement, so this bounds the stall.
 */
export const CONNECT_TIMEOUT_S = 2;
/**
 * How long one statement may take (`statement_timeout=<ms>` in the registry's URL). PostgreSQL
 * cancels it then (statement_timeout, lock_timeout and idle_in_transaction_session_timeout are set
 * to it); a server that does not answer at all is given STATEMENT_GRACE_MS more, then the statement
 * is abandoned with its connection (postgres-timed.ts). Either way the request answers 503.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const STATEMENT_GRACE_MS = 500;

/**
 * How many connections a process opens for reads that do not hold it (postgres-read-pool.ts), at
 * most (`read_connections=<n>` in the registry's URL), besides its one main connection. They are
 * opened only as concurrent reads need them.
 */
export const DEFAULT_READ_CONNECTIONS = 4;
const MAX_READ_CONNECTIONS = 64;

/**
 * What the registry reads from a database URL beyond libpq's own parameters: `pgbouncer=true` says a
 * pooler in transaction mode sits in front, so no named prepared statement may outlive a statement
 * (another client's transaction may run on that server connection next). Answers libpq's URL
 * without it, with a connect timeout unless one is given.
 */
export function connectionOptions(url: string): { libpqUrl: string; pooled: boolean; statementTimeoutMs: number; readConnections: number } {
  const pooled = /[?&]pgbouncer=true(&|$)/.test(url);
  const timeout = /[?&]statement_timeout=([^&]*)/.exec(url)?.[1];
  const statementTimeoutMs = timeout === undefined ? DEFAULT_STATEMENT_TIMEOUT_MS : Number(timeout);
  if (!Number.isSafeInteger(statementTimeoutMs) || statementTimeoutMs < 1) {
    throw new Error(`statement_timeout in the database URL must be a whole number of milliseconds, not ${timeout}`);
  }
  const reads = /[?&]read_connections=([^&]*)/.exec(url)?.[1];
  const readConnections = reads === undefined ? DEFAULT_READ_CONNECTIONS : Number(reads);
  if (!Number.isSafeInteger(readConnections) || readConnections < 1 || readConnections > MAX_READ_CONNECTIONS) {
    throw new Error(`read_connections in the database URL must be a whole number from 1 to ${MAX_READ_CONNECTIONS}, not ${reads}`);
  }
  let libpqUrl = url;
  for (const name of ['pgbouncer', 'statement_timeout', 'read_connections']) {
    libpqUrl = libpqUrl.replace(new RegExp(`([?&])${name}=[^&]*(&|$)`), (_m, before: string, after: string) => (after ? before : ''));
  }
  if (!/[?&]connect_timeout=/.test(libpqUrl)) libpqUrl += `${libpqUrl.includes('?') ? '&' : '?'}connect_timeout=${CONNECT_TIMEOUT_S}`;
  return { libpqUrl, pooled, statementTimeoutMs, readConnections };
}

/**
 * The longest a connect opened in the foreground (after a cut, PostgresConnection.ready) holds the
 * process: libpq's connect_timeout (its least is 2 s), then the settings' round trip, given as long.
 */
export function foregroundConnectMs(libpqUrl: string): number {
  const given = Number(/[?&]connect_timeout=(\d+)/.exec(libpqUrl)?.[1] ?? CONNECT_TIMEOUT_S);
  return (Math.max(given, CONNECT_TIMEOUT_S) + CONNECT_TIMEOUT_S) * 1000;
}

/** A client whose native handle must outlive libpq's asynchronous socket close (see close()). */
const closing = new Set<NativeClient>();

export class PostgresConnection {
  private current: NativeClient;
  /** Bumped by every reconnect: statements prepared on an older connection are prepared again. */
  generation = 0;
  private broken = false;
  /** The generation whose connection was last found cut (-1: none yet). */
  lostAt = -1;
  private failures = 0;
  private retryAt = 0;
  private closed = false;
  /** The connection was dropped because the database stopped answering (not cut): it may be frozen. */
  private unanswered = false;
  /** A connect running in the background (after a statement went unanswered). */
  private reconnecting = false;

  constructor(
    private readonly libpqUrl: string,
    private readonly open: (libpqUrl: string) => NativeClient,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    /** Opens a connection without blocking the process (a frozen database must not stall every request). */
    private readonly openInBackground?: (libpqUrl: string) => Promise<NativeClient>,
  ) {
    this.current = open(libpqUrl);
  }

  /** The raw client, whatever its state (for reading a result's details right after a failure). */
  get client(): NativeClient {
    return this.current;
  }

  /**
   * The client to run the next statement on. A broken connection is replaced here when outside a
   * transaction and its backoff has passed; otherwise the database counts as unavailable.
   */
  ready(inTransaction: boolean): NativeClient {
    if (this.closed) throw new Error('The database connection is closed');
    if (!this.broken) return this.current;
    if (inTransaction || performance.now() < this.retryAt) throw new DatabaseUnavailableError(false);
    // After a database that stopped answering, a connect can hang as long as its timeout (a frozen
    // postmaster accepts the TCP connection and says nothing): connect in the background and answer
    // 503 at once meanwhile. After a cut, connect here: the statement is then run on the new one.
    if (this.unanswered && this.openInBackground) {
      this.reconnectInBackground(this.openInBackground);
      throw new DatabaseUnavailableError(false);
    }
    try {
      this.replace(this.open(this.libpqUrl));
    } catch (error) {
      this.failed();
      throw new DatabaseUnavailableError(false, { cause: error });
    }
    return this.current;
  }

  private reconnectInBackground(openInBackground: (libpqUrl: string) => Promise<NativeClient>): void {
    if (this.reconnecting) return;
    this.reconnecting = true;
    openInBackground(this.libpqUrl)
      .then(
        (client) => (this.closed ? this.release(client) : this.replace(client)),
        () => this.failed(),
      )
      .finally(() => (this.reconnecting = false));
  }

  private replace(client: NativeClient): void {
    this.release(this.current);
    this.current = client;
    this.broken = false;
    this.unanswered = false;
    this.failures = 0;
    this.generation += 1;
    this.log('database: connected again; serving');
  }

  private failed(): void {
    this.failures += 1;
    this.retryAt = performance.now() + Math.min(FIRST_RETRY_MS * 2 ** (this.failures - 1), MAX_RETRY_MS);
  }

  /** Whether the connection is known to be broken (then nothing may be sent on it, not even ROLLBACK). */
  get isBroken(): boolean {
    return this.broken;
  }

  /**
   * A statement was abandoned unanswered (postgres-timed.ts): the connection is in an unknown state,
   * so it is dropped like a cut one (and replaced, after the backoff, by the next statement).
   */
  abandon(timeoutMs: number): void {
    if (this.broken) return;
    this.broken = true;
    this.unanswered = true;
    this.lostAt = this.generation;
    this.retryAt = 0;
    this.log(`database: no answer within ${timeoutMs} ms; answering 503 until it answers again`);
  }

  /**
   * The read connections found the database not answering (postgres-read-pool.ts): dropped like an
   * abandoned statement's connection, or, already broken, replaced in the background. Otherwise the
   * next statement here (a request's write, a background job's) would hold the process, and every
   * request in it, for its whole deadline or a connect's on the same silent database.
   */
  notAnswering(timeoutMs: number): void {
    if (!this.broken) return this.abandon(timeoutMs);
    this.unanswered = true;
  }

  /** Whether `code` (the failed statement's SQLSTATE, if any) means the connection is gone; then marks it so. */
  lost(code: string | undefined): boolean {
    const gone = connectionGone(this.current.pq, code);
    if (gone && !this.broken) {
      this.broken = true;
      this.lostAt = this.generation;
      this.retryAt = 0;
      this.log(`database: connection lost (${code ?? 'no SQLSTATE'}); answering 503 until it is back`);
    }
    return gone;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.release(this.current);
  }

  private release(client: NativeClient): void {
    releaseClient(client);
  }
}

/** Whether the connection of `pq` is gone, by its state or by the failed statement's SQLSTATE. */
export function connectionGone(pq: NativeClient['pq'], code: string | undefined): boolean {
  return pq.transactionStatus() === CONNECTION_BAD || (code !== undefined && (LOST_CODES.has(code) || code.startsWith('08')));
}

/** Closes a client, which may be broken. */
export function releaseClient(client: NativeClient): void {
  try {
    client.end();
  } catch {
    // a broken connection may refuse to close cleanly: it is gone either way
  }
  // libpq's binding closes its socket watcher asynchronously (uv_close): the native object must
  // outlive that, or libuv finds a freed handle and aborts the process. Keep it a little while.
  closing.add(client);
  setTimeout(() => closing.delete(client), 1000).unref();
}
