// The wrk scripts the PostgreSQL bench sends to a world's servers, one Lua file each.
import { wrkScript } from './wrk';
import type { Seller, World } from './postgres-world';

export interface WorldScripts {
  /** GET each seller's warehouse inventory in turn, with its own token. */
  reads: string;
  /** Reserve 0.001 t of every seller's credits, organizations interleaved. */
  spread: string;
  /** Reserve 0.001 t of the first seller's credits only: every request on one organization. */
  oneOrg: string;
}

function reserveRequests(sellers: Seller[]) {
  return sellers.flatMap((s) =>
    s.credits.map((creditId) => ({
      method: 'POST' as const,
      path: `/organizations/${s.id}/warehouse/inventory/reservations`,
      token: s.token,
      body: JSON.stringify({ creditId, amount: 0.001 }),
    })),
  );
}

/** Writes the world's scripts into `dir`. */
export function worldScripts(dir: string, w: World): WorldScripts {
  const reads = wrkScript(
    dir,
    w.sellers.map((s) => ({ method: 'GET', path: `/organizations/${s.id}/warehouse/inventory`, token: s.token })),
  );
  // interleave organizations so that consecutive requests are for different ones
  const all = reserveRequests(w.sellers);
  const spread = wrkScript(
    dir,
    [0, 1, 2, 3].flatMap((c) => all.filter((_, i) => i % 4 === c)),
  );
  return { reads, spread, oneOrg: wrkScript(dir, reserveRequests([w.sellers[0]!])) };
}
