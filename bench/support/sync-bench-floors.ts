// The sync bench's floors: the same requests a first sync makes (seed interface, or the changes
// feed) downloaded as text and their rows inserted raw, so a sync's time has a measure to stand by.
import BetterSqlite3 from 'better-sqlite3';
import { forEachLimited } from '@desk/sync/concurrency';
import { replayLogFloor } from './log-replay-floor';
import { cpuMsSince, jobTokens, type ChildJob, type ChildResult } from './sync-bench-job';

/** The floor: the same requests, bodies kept as text, rows inserted raw with one statement in one transaction. */
export async function childFloor(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const tokens = jobTokens(job);
  const token = await tokens.get({ kind: 'app' });
  const installationToken = job.installations[0]
    ? await tokens.get({ kind: 'installation', installationId: job.installations[0].id })
    : token;
  let requests = 0;
  const get = async (path: string, bearer = token) => {
    requests++;
    const res = await fetch(`${job.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return res.text();
  };
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  // SYNC_BENCH_TRACE=1: the wall time of each part, to set beside the sync's per resource.
  let lap = started;
  const phase = (name: string) => {
    if (process.env.SYNC_BENCH_TRACE)
      console.error(`floor ${name.padEnd(18)} ${((performance.now() - lap) / 1000).toFixed(2).padStart(7)} s`);
    lap = performance.now();
  };
  const rows: [string, string][] = [];
  const pages = async (path: string, key: string) => {
    for (let page = 0; ; page++) {
      const items = (JSON.parse(await get(`${path}?limit=100&page=${page}`)) as Record<string, { id: string }[]>)[key]!;
      for (const item of items) rows.push([item.id, JSON.stringify(item)]);
      if (items.length < 100) return items;
    }
  };
  await pages('/projects', 'projects');
  const before = rows.length;
  await pages('/projects/internal', 'projects');
  phase('project lists');
  const ids = rows.slice(before).map(([id]) => id);
  await forEachLimited(ids, 8, async (id) => {
    rows.push([`d:${id}`, await get(`/projects/internal/${id}`)]);
    rows.push([`c:${id}`, await get(`/carbonCredits/projects/${id}`)]);
  });
  phase('details + credits');
  for (const account of ['buffer', 'adjustment', 'organization'])
    rows.push([account, await get(`/carbonCredits/icr/inventory/${account}`)]);
  phase('inventories');
  await pages('/v1/retirements', 'retirements');
  phase('retirements');
  for (const i of job.installations) {
    rows.push([`w:${i.organizationId}`, await get(`/organizations/${i.organizationId}/warehouse/inventory`, installationToken)]);
    await pages(`/organizations/${i.organizationId}/warehouse/inventory/reservations`, 'reservations').catch(() => []);
  }
  phase('warehouses');
  // The organizations the sync asks for: every proponent of a project, and the installed ones
  // (with their installation's token, as the sync does), eight at a time; one the app may not see is a 404.
  const installedToken = new Map(job.installations.map((i) => [i.organizationId, installationToken]));
  const proponents = rows
    .slice(before, before + ids.length)
    .flatMap(([, json]) => (JSON.parse(json) as { proponents: { id: string }[] }).proponents.map((p) => p.id));
  await forEachLimited([...new Set([...installedToken.keys(), ...proponents])], 8, async (id) => {
    const text = await get(`/v1/organizations/${id}`, installedToken.get(id)).catch((error: Error) => {
      if (!error.message.endsWith(': 404')) throw error;
      return null;
    });
    if (text !== null) rows.push([`o:${id}`, text]);
  });
  phase('organizations');
  const db = new BetterSqlite3(job.cacheFile);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id TEXT, json TEXT)');
  const insert = db.prepare('INSERT INTO rows (id, json) VALUES (?, ?)');
  db.transaction(() => {
    for (const [id, json] of rows) insert.run(id, json);
  })();
  db.close();
  phase('inserts');
  return { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuStarted), requests, rows: rows.length, ok: true };
}

/** The feed's floor: the same feed pages downloaded as text, their items inserted raw in one transaction. */
export async function childFeedFloor(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const tokens = jobTokens(job);
  const token = await tokens.get({ kind: 'app' });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const db = new BetterSqlite3(job.cacheFile);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id TEXT, json TEXT)');
  const insert = db.prepare('INSERT INTO rows (id, json) VALUES (?, ?)');
  let requests = 0;
  let rows = 0;
  let cursor = '';
  for (;;) {
    requests++;
    // Uncompressed, as the desk asks a registry on its own machine (client/http.ts).
    const url = `${job.url}/sync/v1/changes?limit=1000&cursor=${encodeURIComponent(cursor)}`;
    const init = { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } };
    // Once more after a network failure, as the desk's client does: the registry may have closed
    // the kept-alive connection while this floor inserted the page before (a loaded machine).
    const res = await fetch(url, init).catch(() => fetch(url, init));
    if (!res.ok) throw new Error(`feed: ${res.status}`);
    const page = JSON.parse(await res.text()) as { changes: Record<string, unknown>[]; cursor: string; more: boolean };
    db.transaction(() => {
      for (const item of page.changes) insert.run(String(item.type), JSON.stringify(item));
    })();
    rows += page.changes.length;
    cursor = page.cursor;
    if (!page.more) break;
  }
  db.close();
  if (job.replayLog) requests += (await replayLogFloor(job.url)).requests;
  return { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuStarted), requests, rows, ok: true };
}
