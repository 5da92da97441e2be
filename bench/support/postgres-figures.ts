// How the PostgreSQL bench reports what it measured.
import type { BenchFigure } from '@bench/types';

export interface CpuPerRequest {
  serverMs: number;
  backendMs: number;
}

/** CPU milliseconds per request of one process of each engine: server process + PostgreSQL backends. */
export function cpuFigures(what: string, pg: CpuPerRequest, lite: CpuPerRequest): BenchFigure[] {
  const split = (c: CpuPerRequest) => `server ${c.serverMs.toFixed(2)} + database ${c.backendMs.toFixed(2)}`;
  return [
    { suite: 'postgres', name: `CPU per ${what}, PostgreSQL, 1 process (${split(pg)})`, value: pg.serverMs + pg.backendMs, unit: 'ms/req' },
    { suite: 'postgres', name: `CPU per ${what}, SQLite, 1 process`, value: lite.serverMs, unit: 'ms/req' },
  ];
}
