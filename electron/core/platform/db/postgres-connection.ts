// The one libpq connection of a PostgreSQL process, which outlives the database it talks to. A
// database restart, a terminated backend or a cut network breaks it; the statement that finds out
// reports the database as unavailable (DatabaseUnavailableError: 503 with Retry-After over HTTP),
// and the next statement run outside a transaction opens a new connection, no sooner than a capped
// backoff allows (so an outage costs each request one failed connect at most, and the process serves
// again within about a second of the database being back). Never reconnects inside a transaction: the
// transaction died with the old connection, and its remaining statements must not run elsewhere.
import { DatabaseUnavailableError } from './database';

/** The part of pg-native (and its libpq handle) the engine uses. */
export interface NativeClient {
  connectSync(url: string): void;
  querySync(text: string, values?: unknown[]): Record<string, unknown>[];
  prepareSync(name: string, text: string, nParams: number): void;
  executeSync(name: string, values: unknown[]): Record<string, unknown>[];
  end(): void;
  pq: {
    cmdTuples(): string;
    transactionStatus(): number;
    resultErrorFields(): { sqlState?: string; messagePrimary?: string; messageDetail?: string } | undefined;
    connected?: boolean;
    finish(): void;
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
const CONNECT_TIMEOUT_S = 2;

/**
 * What the registry reads from a database URL beyond libpq's own parameters: `pgbouncer=true` says a
 * pooler in transaction mode sits in front, so no named prepared statement may outlive a statement
 * (another client's transaction may run on that server connection next). Answers libpq's URL
 * without it, with a connect timeout unless one is given.
 */
export function connectionOptions(url: string): { libpqUrl: string; pooled: boolean } {
  const pooled = /[?&]pgbouncer=true(&|$)/.test(url);
  let libpqUrl = url.replace(/([?&])pgbouncer=(?:true|false)(&|$)/, (_m, before: string, after: string) => (after ? before : ''));
  if (!/[?&]connect_timeout=/.test(libpqUrl)) libpqUrl += `${libpqUrl.includes('?') ? '&' : '?'}connect_timeout=${CONNECT_TIMEOUT_S}`;
  return { libpqUrl, pooled };
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

  constructor(
    private readonly libpqUrl: string,
    private readonly open: (libpqUrl: string) => NativeClient,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
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
    try {
      const client = this.open(this.libpqUrl);
      this.release(this.current);
      this.current = client;
    } catch (error) {
      this.failures += 1;
      this.retryAt = performance.now() + Math.min(FIRST_RETRY_MS * 2 ** (this.failures - 1), MAX_RETRY_MS);
      throw new DatabaseUnavailableError(false, { cause: error });
    }
    this.broken = false;
    this.failures = 0;
    this.generation += 1;
    this.log('database: connected again; serving');
    return this.current;
  }

  /** Whether `code` (the failed statement's SQLSTATE, if any) means the connection is gone; then marks it so. */
  lost(code: string | undefined): boolean {
    const gone =
      this.current.pq.transactionStatus() === CONNECTION_BAD || (code !== undefined && (LOST_CODES.has(code) || code.startsWith('08')));
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
}
