// Issue 29's cost bench, its write side: the engines it measures on (a fresh SQLite data folder or
// PostgreSQL database per measurement) and ledger writes per second with and without the log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendAudit } from '@registry/audit';
import type { RegistryContext } from '@registry/context';
import { appendMovement } from '@registry/ledger';
import { CHECKPOINT_INTERVAL_MS, signCheckpoint } from '@registry/transparency/checkpoints';
import { backendPids, cpuMs } from './cpu';
import { createPostgresDatabase, openRegistryAt, stockWorld, walPerWrite } from './tlog-registry';

const WRITES = Number(process.env.BENCH_TLOG_WRITES ?? 3000);
const PG_WRITES = Number(process.env.BENCH_TLOG_PG_WRITES ?? 1000);
/**
 * Audit entries written before the timed writes, on both sides (a registry that has run a while);
 * with the log they are its leaves, signed and indexed before the span: to see whether a write's
 * share of the log's work grows with the log (SQLite's `tlog_refs` is keyed by random UUIDs).
 */
const PREFILL = Number(process.env.BENCH_TLOG_PREFILL ?? 0);
/**
 * The with-log side signs a checkpoint this often during its timed writes: the server's cadence
 * under steady writes (CHECKPOINT_INTERVAL_MS), so that the work a checkpoint does per leaf (the
 * tree's hashes, SQLite's record lookup) is charged as a server pays it.
 */
const CHECKPOINT_MS = CHECKPOINT_INTERVAL_MS;

/** Where one measurement runs: a fresh SQLite data folder, or a fresh PostgreSQL database. */
export interface Engine {
  name: 'SQLite' | 'PostgreSQL';
  writes: number;
  fresh(): { target: string; remove(): void; backends?(): number[] };
}

export function engines(): Engine[] {
  const sqlite: Engine = {
    name: 'SQLite',
    writes: WRITES,
    fresh() {
      const dir = mkdtempSync(join(tmpdir(), 'bench-tlog-'));
      return { target: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
    },
  };
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? process.env.REGISTRY_TEST_POSTGRES_URL;
  if (!pgUrl) console.log('transparency: PostgreSQL skipped (set BENCH_POSTGRES_URL; scripts/postgres.sh start prints one)');
  let made = 0;
  const postgres: Engine = {
    name: 'PostgreSQL',
    writes: PG_WRITES,
    fresh() {
      const name = `tlog_bench_${process.pid}_${made++}`;
      const db = createPostgresDatabase(pgUrl!, name);
      return { target: db.url, remove: db.drop, backends: () => backendPids(pgUrl!, name) };
    },
  };
  return pgUrl ? [sqlite, postgres] : [sqlite];
}

/** CPU µs this process has used so far (user + system), plus that of the given processes. */
const cpuUs = (pids: readonly number[]) => {
  const own = process.cpuUsage();
  return own.user + own.system + cpuMs(pids) * 1000;
};

/** `count` audit entries in transactions of 10,000, each naming a random target like a real entry's id. */
function prefill(r: RegistryContext, count: number): void {
  for (let done = 0; done < count; done += 10_000)
    r.db.transaction(() => {
      for (let i = done; i < Math.min(count, done + 10_000); i++)
        appendAudit(r, {
          operatorId: null,
          actor: 'bench',
          action: 'x',
          targetIds: [crypto.randomUUID()],
          outcome: 'succeeded',
          detail: { i },
        });
    });
}

/**
 * Ledger writes per second: one transaction per write, a movement and its audit entry, as an
 * operator write makes, and the CPU time each took over the same span (this process's, plus on
 * PostgreSQL its server backend's from /proc: steadier than a rate on a shared machine); then,
 * untimed, the write-ahead log each write took.
 */
export function writesPerSecond(engine: Engine, withLog: boolean): { rate: number; cpuPerWrite: number; wal: number } {
  const where = engine.fresh();
  const r = openRegistryAt(where.target, withLog);
  try {
    const w = stockWorld(r);
    const write = (i: number) =>
      r.db.transaction(() => {
        const [from, to] = i % 2 === 0 ? w.accounts : [w.accounts[1], w.accounts[0]];
        appendMovement(r, { creditId: w.creditId, kind: i % 2 === 0 ? 'deposit' : 'withdraw', from, to, amount: 1 });
        appendAudit(r, {
          operatorId: null,
          actor: 'bench',
          action: 'warehouse.deposit',
          targetIds: [w.creditId],
          outcome: 'succeeded',
          detail: { i },
        });
      });
    prefill(r, PREFILL);
    for (let i = 0; i < 100; i++) write(i);
    if (withLog) signCheckpoint(r);
    const backends = where.backends?.() ?? [];
    const cpuBefore = cpuUs(backends);
    const started = performance.now();
    let signed = started;
    for (let i = 0; i < engine.writes; i++) {
      write(i);
      // the work the server's checkpoint timer adds to its writes, timed with them (SQLite indexes
      // the records' lookup there, migration 0019)
      if (withLog && performance.now() - signed >= CHECKPOINT_MS) {
        signCheckpoint(r);
        signed = performance.now();
      }
    }
    // and the checkpoint after them, so that every leaf's share of that work is timed
    if (withLog) signCheckpoint(r);
    const rate = engine.writes / ((performance.now() - started) / 1000);
    const cpuPerWrite = (cpuUs(backends) - cpuBefore) / engine.writes;
    return { rate, cpuPerWrite, wal: walPerWrite(r, write, withLog ? () => signCheckpoint(r) : undefined) };
  } finally {
    r.close();
    where.remove();
  }
}
