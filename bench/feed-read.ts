// Reads a whole changes feed in process, as GET /sync/v1/changes makes it (changesSince, then the
// handler's JSON text), from a copy of the cached seeded registry: time per phase, and optionally
// the sha256 of every page (to check that a change answers byte for byte the same).
// npx tsx bench/feed-read.ts [--scale 100] [--viewer examiner|app|installation] [--hashes file] [--gzip]
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ManualClock } from '../electron/core/platform/clock';
import { openRegistry } from '../electron/core/registry/open';
import { changesSince, type FeedViewer } from '../electron/core/registry/queries/changes';
import { decodeCursor } from '../electron/core/registry/queries/changes';
import { jsonText } from '../electron/core/registry/http/types';
import type { FeedKeyKind } from '../shared/registry/vocabulary';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100' },
    viewer: { type: 'string', default: 'examiner' },
    hashes: { type: 'string' },
    gzip: { type: 'boolean', default: false },
    limit: { type: 'string', default: '1000' },
    repeat: { type: 'string', default: '1' },
    kinds: { type: 'string' },
  },
});
/** This thread's CPU time in ms (the process's: GC helper threads included). */
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** The main thread's own CPU time in ms (Linux: /proc; GC helper threads left out), or NaN. */
const mainThreadCpu = () => {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 100 Hz ticks
  } catch {
    return NaN;
  }
};
const kinds = values.kinds ? (values.kinds.split(',') as FeedKeyKind[]) : undefined;
const root = join(import.meta.dirname, '.data');
const cached = readdirSync(root).find((n) => n.startsWith(`scale-${values.scale}-`));
if (!cached) throw new Error(`no cached scale-${values.scale} registry in bench/.data`);
const dir = mkdtempSync(join(tmpdir(), 'feed-read-'));
copyFileSync(join(root, cached, 'registry.sqlite'), join(dir, 'registry.sqlite'));
/** One whole read of the feed by a registry opened afresh (no cache of an earlier read). */
function readOnce(): void {
  const registry = openRegistry({ dataDir: dir, clock: new ManualClock(Date.UTC(2026, 10, 26, 8)) });
  try {
    const orgId = (registry.db.raw.prepare('SELECT organization_id AS id FROM installations LIMIT 1').get() as { id: string } | undefined)
      ?.id;
    const viewers: Record<string, FeedViewer> = {
      examiner: { examinerRead: true, organizationId: null, warehouseRead: false },
      app: { examinerRead: false, organizationId: null, warehouseRead: false },
      installation: { examinerRead: false, organizationId: orgId ?? null, warehouseRead: true },
    };
    const viewer = viewers[values.viewer];
    if (!viewer) throw new Error(`--viewer: one of ${Object.keys(viewers).join(', ')}`);
    const limit = Number(values.limit);
    let cursor: string | null = null;
    const hashes: string[] = [];
    let pages = 0;
    let items = 0;
    let bytes = 0;
    let gzipped = 0;
    let tQuery = 0;
    let tJson = 0;
    let tGzip = 0;
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const mainStarted = mainThreadCpu();
    for (;;) {
      const t0 = cpuNow();
      const page = changesSince(registry, viewer, cursor === null ? null : decodeCursor(registry, cursor), limit, { kinds });
      const t1 = cpuNow();
      const text = jsonText(page).bytes;
      const t2 = cpuNow();
      if (values.gzip) gzipped += gzipSync(text, { level: 1 }).length;
      const t3 = cpuNow();
      tQuery += t1 - t0;
      tJson += t2 - t1;
      tGzip += t3 - t2;
      pages++;
      items += page.changes.length + page.removed.length;
      bytes += text.length;
      if (values.hashes) hashes.push(createHash('sha256').update(text).digest('hex'));
      cursor = page.cursor;
      if (!page.more) break;
    }
    const total = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    const main = mainThreadCpu() - mainStarted;
    console.log(
      `${values.viewer}: ${pages} pages, ${items} items, ${(bytes / 1e6).toFixed(1)} MB` +
        (values.gzip ? ` (${(gzipped / 1e6).toFixed(1)} MB gzip)` : '') +
        `; CPU: changesSince ${(tQuery / 1000).toFixed(2)} s, JSON ${(tJson / 1000).toFixed(2)} s` +
        (values.gzip ? `, gzip ${(tGzip / 1000).toFixed(2)} s` : '') +
        `, total ${(total / 1000).toFixed(2)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, main thread ${(main / 1000).toFixed(2)} s)`,
    );
    if (values.hashes) writeFileSync(values.hashes, hashes.join('\n') + '\n');
  } finally {
    registry.close();
  }
}

try {
  // With --repeat, one line per read: on a shared machine compare the quickest.
  for (let i = 0; i < Number(values.repeat); i++) readOnce();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
