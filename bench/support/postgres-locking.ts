// The two ways to keep reservations exact across processes, straight against the database (no HTTP;
// pg-reserver.ts): READ COMMITTED behind the credit's balance row lock against SERIALIZABLE with
// bounded retry, each with 1 and 2 processes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchFigure } from '@bench/types';
import { releaseHolds } from './postgres-database';
import type { Seller } from './postgres-world';

const DIRECT_MS = Number(process.env.BENCH_DIRECT_MS ?? 5000);
const root = join(import.meta.dirname, '../..');

/**
 * `processes` direct reservers started together, each over `sellers`' credits in turn (from its own
 * place in that list); answers reservations/s and how many transactions ran again.
 */
async function direct(
  url: string,
  mode: 'serializable' | 'rows',
  processes: number,
  appId: string,
  sellers: Seller[],
): Promise<{ rps: number; retries: number; gaveUp: number }> {
  const pairs = sellers.flatMap((s) => s.credits.map((c) => `${s.id}:${c}`));
  const children = await Promise.all(
    Array.from({ length: processes }, async (_, i) => {
      const args = [url, mode, appId, pairs.join(','), String(DIRECT_MS), String(Math.floor((i * pairs.length) / processes))];
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/support/pg-reserver.ts'), ...args], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout });
      const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
      await next(); // ready
      return { child, next };
    }),
  );
  const results = children.map((c) => c.next());
  for (const c of children) c.child.stdin.write('go\n');
  const answers = (await Promise.all(results)).map((line) => JSON.parse(line) as { made: number; retries: number; gaveUp: number });
  return {
    rps: answers.reduce((s, a) => s + a.made, 0) / (DIRECT_MS / 1000),
    retries: answers.reduce((s, a) => s + a.retries, 0),
    gaveUp: answers.reduce((s, a) => s + a.gaveUp, 0),
  };
}

export type Direct = Awaited<ReturnType<typeof direct>>;
export type Locking = Record<'serializable1' | 'serializable2' | 'rows1' | 'rows2', Direct>;

/** Both ways, 1 then 2 processes, alternated and run twice; the better of the two runs of each kept. */
export async function compareLocking(url: string, appId: string, sellers: Seller[]): Promise<Locking> {
  const best: Record<string, Direct> = {};
  for (let round = 0; round < 2; round++) {
    for (const processes of [1, 2]) {
      for (const mode of round === 0 ? (['serializable', 'rows'] as const) : (['rows', 'serializable'] as const)) {
        releaseHolds(url);
        const got = await direct(url, mode, processes, appId, sellers);
        const key = `${mode}${processes}`;
        if (!best[key] || got.rps > best[key].rps) best[key] = got;
      }
    }
  }
  return best as Locking;
}

export function lockingFigures(what: string, r: Locking, load: number): BenchFigure[] {
  const figure = (mode: 'serializable' | 'rows', n: 1 | 2): BenchFigure => {
    const got = r[`${mode}${n}`];
    const other = r[`${mode === 'rows' ? 'serializable' : 'rows'}${n}`];
    const label = `${mode === 'rows' ? 'row locks' : 'serializable'}, ${n} process${n === 2 ? 'es' : ''}`;
    return {
      suite: 'postgres',
      name: `direct reservations, ${what}, ${label} (${got.retries} re-run${got.gaveUp > 0 ? `, ${got.gaveUp} failed` : ''}${n === 1 && mode === 'serializable' ? `; load ${load.toFixed(1)}` : ''})`,
      value: got.rps,
      unit: 'res/s',
      ...(mode === 'rows' ? { floor: other.rps, ratio: got.rps / other.rps, target: 'ratio: x serializable' } : {}),
    };
  };
  return [figure('serializable', 1), figure('rows', 1), figure('serializable', 2), figure('rows', 2)];
}
