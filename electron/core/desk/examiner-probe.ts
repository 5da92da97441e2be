// Whether the app may read internal projects now, asked of the registry with the app token the desk
// keeps rather than a token minted to read its `permissions`: each mint is a token row, an audit
// entry and a transparency-log leaf on the registry, and a sync polls. examiner:read is an
// app-level grant the operator makes and revokes at any time (compatibility.md, "Apps"): a registry
// that checks it per request (ours does) answers the kept token as the grant is now; one that
// snapshots it in the token answers as it was at the mint, and so follows at the token's next
// refresh. Either way the answer says what the sync can actually read with the token it uses.
import type { RawAnswer, RegistryClient } from './client/registry-client';
import { RegistryClientError } from './client/errors';
import { hasExaminerRead } from './installations';

/** The internal list's page asked as the probe: the sync's own first page when it will read the list. */
export interface ProbeQuery {
  page: number;
  limit: number;
}

/** The smallest question: one project (the feed's pass and the connection check need no page). */
export const SMALLEST_PROBE: ProbeQuery = { page: 0, limit: 1 };

export interface ExaminerProbe {
  examinerRead: boolean;
  /** The page the probe asked (with `query`), when the registry answered it, and how long it took (ms). */
  answer: RawAnswer | null;
  answerMs: number | null;
  query: ProbeQuery;
}

/**
 * Asks the internal list's page `query` with the kept app token: answered, the grant holds; 403, it
 * does not. Any other refusal (a registry without the list, or failing on it) says nothing of the
 * grant: the token's stated permissions decide, and the step that reads the list meets the error.
 * A registry out of reach, or refusing the app itself (401 after a new token), fails as a token
 * request would have.
 */
export async function probeExaminerRead(client: RegistryClient, query: ProbeQuery = SMALLEST_PROBE): Promise<ExaminerProbe> {
  // The token first, so the time taken is the page's alone (the sync sizes its look-ahead by it).
  await client.tokens.get({ kind: 'app' });
  const asked = performance.now();
  try {
    const answer = await client.callRaw('listInternalProjects', { query });
    return { examinerRead: true, answer, answerMs: performance.now() - asked, query };
  } catch (error) {
    if (!(error instanceof RegistryClientError) || error.kind !== 'http' || error.status === 401) throw error;
    if (error.status === 403) return { examinerRead: false, answer: null, answerMs: null, query };
    const grant = await client.tokens.grant({ kind: 'app' });
    return { examinerRead: hasExaminerRead(grant.permissions), answer: null, answerMs: null, query };
  }
}
