// The connection's history evidence as one JSON file (shared/transparency/evidence.ts, documented in
// docs/transparency.md): what a person hands to the registry's operator, an auditor or anyone else,
// who checks it with `npm run verify -- --evidence <file>` or by hand, without the desk.
import { EVIDENCE_FORMAT, type EvidenceFile } from '@shared/transparency/evidence';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '../cache/schema';
import { logKeyOf } from './log-key';
import { pinnedKey } from './status';
import { evidenceRows, readState } from './store';

const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

export function historyEvidenceFile(
  db: SqliteDatabase<CacheTables>,
  connection: { name: string; baseUrl: string },
  now: number,
): { baseName: string; bytes: Uint8Array } {
  const state = readState(db);
  const key = pinnedKey(db) ?? null;
  const file: EvidenceFile = {
    format: EVIDENCE_FORMAT,
    registry: connection.baseUrl,
    connection: connection.name,
    exportedAt: new Date(now).toISOString(),
    key,
    keyFingerprint: key === null ? null : logKeyOf(key).fingerprint,
    verified:
      state && state.size !== null && state.root !== null && state.checkpoint !== null && state.frontier !== null
        ? { entries: state.size, root: state.root, checkpoint: state.checkpoint, frontier: JSON.parse(state.frontier) as string[] }
        : null,
    findings: evidenceRows(db).map((e) => ({
      foundAt: new Date(e.found_at).toISOString(),
      kind: e.kind,
      reason: e.message,
      keptCheckpoint: e.kept_checkpoint,
      latestCheckpoint: e.latest_checkpoint,
      proof: parsed(e.proof),
    })),
  };
  const day = new Date(now).toISOString().slice(0, 10);
  return {
    baseName: `history-evidence ${connection.name} ${day}`,
    bytes: new TextEncoder().encode(`${JSON.stringify(file, null, 2)}\n`),
  };
}
