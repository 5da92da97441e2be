// The PostgreSQL bench's registry server processes: two on its PostgreSQL database and one on the
// same world in SQLite, each loaded by wrk and measured in CPU beside its floor.
import { backendPids, cpuMs } from './cpu';
import { startScript } from './processes';
import { wrk, wrkScript, type Rate } from './wrk';

const SERVER = 'test/support/warehouse-server.ts';

/** A wrk run with the CPU milliseconds each request cost the server process and the database. */
export interface Measured extends Rate {
  serverMs: number;
  backendMs: number;
}

/** GET /__floor__/ping on the same processes: what a request costs before the registry's work. */
export interface Floors {
  one: Rate;
  two: Rate;
  lite: Rate;
}

export interface BenchServers {
  /** The two PostgreSQL processes' base URLs. */
  pg: string[];
  /** The SQLite process's base URL. */
  lite: string;
  /** wrk on `bases` with the CPU per request of the first PostgreSQL process or of the SQLite one. */
  measured(bases: string[], script: string, connections: number, which: 'postgres' | 'sqlite'): Promise<Measured>;
  /** Stops every process still running (again is a no-op). */
  stop(): Promise<void>;
}

/**
 * Starts the processes in order (PostgreSQL, PostgreSQL, SQLite). `serverUrl` is the cluster's
 * admin URL, where the database's backends are found by name.
 */
export async function startServers(serverUrl: string, database: { url: string; name: string }, sqliteDir: string): Promise<BenchServers> {
  const stops: (() => Promise<void>)[] = [];
  const pids: number[] = [];
  const stop = async () => {
    for (const s of stops.splice(0)) await s();
  };
  const start = async (target: string) => {
    const server = await startScript<{ url: string }>(SERVER, [target]);
    stops.push(server.stop);
    pids.push(server.child.pid!);
    return server.info.url;
  };
  // CPU per request: of the server process, and (PostgreSQL) of every backend on the database,
  // those the run opened included (a process opens its read connections as its reads need them)
  const measured = async (bases: string[], script: string, connections: number, which: 'postgres' | 'sqlite') => {
    const server = which === 'postgres' ? 0 : 2;
    const backends = which === 'sqlite' ? [] : backendPids(serverUrl, database.name);
    const [serverBefore, backendsBefore] = [cpuMs([pids[server]!]), cpuMs(backends)];
    const rate = await wrk(bases, script, connections);
    const perRequest = (ms: number) => ms / rate.total;
    const opened = which === 'sqlite' ? [] : backendPids(serverUrl, database.name).filter((pid) => !backends.includes(pid));
    return {
      ...rate,
      serverMs: perRequest(cpuMs([pids[server]!]) - serverBefore),
      backendMs: perRequest(cpuMs(backends) + cpuMs(opened) - backendsBefore),
    };
  };
  try {
    const pg = [await start(database.url), await start(database.url)];
    const lite = await start(sqliteDir);
    return { pg, lite, measured, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The floors: one PostgreSQL process (32 connections), both (16 each), and SQLite (32). */
export async function measureFloors(servers: BenchServers, dir: string): Promise<Floors> {
  const floorScript = wrkScript(dir, [{ method: 'GET', path: '/__floor__/ping' }]);
  const one = await wrk([servers.pg[0]!], floorScript, 32);
  const two = await wrk(servers.pg, floorScript, 16);
  const lite = await wrk([servers.lite], floorScript, 32);
  return { one, two, lite };
}
