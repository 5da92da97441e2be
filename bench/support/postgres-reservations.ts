// The PostgreSQL bench's writes: reservations of 0.001 t over HTTP, spread over the 8 sellers'
// credits and all on one organization, each run starting without live holds.
import type { BenchFigure } from '@bench/types';
import { cpuFigures } from './postgres-figures';
import type { WorldScripts } from './postgres-scripts';
import type { BenchServers, Floors, Measured } from './postgres-servers';
import { wrk, type Rate } from './wrk';

export interface Reservations {
  spread1: Measured;
  spread2: Rate;
  spreadLite: Measured;
  hot1: Rate;
  hot2: Rate;
}

/** `releaseHolds` cancels the PostgreSQL world's pending reservations (SQLite's run last there). */
export async function measureReservations(
  servers: BenchServers,
  pg: WorldScripts,
  lite: WorldScripts,
  releaseHolds: () => void,
): Promise<Reservations> {
  const one = [servers.pg[0]!];
  const spread1 = await servers.measured(one, pg.spread, 32, 'postgres');
  releaseHolds();
  const spread2 = await wrk(servers.pg, pg.spread, 16);
  const spreadLite = await servers.measured([servers.lite], lite.spread, 32, 'sqlite');
  releaseHolds();
  const hot1 = await wrk(one, pg.oneOrg, 32);
  releaseHolds();
  const hot2 = await wrk(servers.pg, pg.oneOrg, 16);
  releaseHolds();
  return { spread1, spread2, spreadLite, hot1, hot2 };
}

export function reservationFigures(r: Reservations, floors: Floors): BenchFigure[] {
  const s = 'postgres';
  return [
    {
      suite: s,
      name: `reservations, 8 organizations, 1 process (${r.spread1.total} made)`,
      value: r.spread1.rps,
      unit: 'req/s',
      floor: floors.one.rps,
      ratio: r.spread1.rps / floors.one.rps,
    },
    {
      suite: s,
      name: `reservations, 8 organizations, 2 processes (${r.spread2.total} made)`,
      value: r.spread2.rps,
      unit: 'req/s',
      floor: floors.two.rps,
      ratio: r.spread2.rps / r.spread1.rps,
      target: '>= 1.5x 1 process',
      pass: r.spread2.rps >= 1.5 * r.spread1.rps,
    },
    {
      suite: s,
      name: `reservations, SQLite, 1 process (${r.spreadLite.total} made)`,
      value: r.spreadLite.rps,
      unit: 'req/s',
      floor: floors.lite.rps,
      ratio: r.spreadLite.rps / floors.lite.rps,
    },
    {
      suite: s,
      name: 'reservations, one organization, 1 process',
      value: r.hot1.rps,
      unit: 'req/s',
      floor: floors.one.rps,
      ratio: r.hot1.rps / floors.one.rps,
    },
    {
      suite: s,
      name: 'reservations, one organization, 2 processes',
      value: r.hot2.rps,
      unit: 'req/s',
      floor: floors.two.rps,
      ratio: r.hot2.rps / r.hot1.rps,
      target: 'ratio: x 1 process',
    },
    ...cpuFigures('reservation', r.spread1, r.spreadLite),
  ];
}
