// The auditor's check of a registry's own database (`npm run admin -- verify-log`): every movement
// and audit row re-encoded from what is stored now must be the leaf that was hashed, the leaves must
// be numbered without gaps, and the tree rebuilt from the rows must have, at each signed
// checkpoint's size, the root that checkpoint signed, under a signature of the log's key. A row
// rewritten by any means (INSERT OR REPLACE, a dropped trigger, a superuser's UPDATE) fails here.
import { missingGuards } from '../append-only-guards';
import { sha256, verifyEd25519 } from '@platform/log-crypto';
import { MerkleTree } from '@shared/transparency/merkle';
import { openSignedNote, parseCheckpointBody } from '@shared/transparency/note';
import { toBase64 } from '@shared/transparency/bytes';
import type { RegistryContext } from '../context';
import { logKey } from './keys';
import { leafHashHexColumn } from './tree';
import { encodeLeaf, leafHashHex, leafIdOf, type LeafKind } from './leaf';

export interface LogVerification {
  leaves: number;
  checkpoints: number;
  problems: string[];
}

const MAX_PROBLEMS = 50;

export function verifyLogDatabase(ctx: RegistryContext): LogVerification {
  const problems: string[] = [];
  const report = (p: string) => problems.length < MAX_PROBLEMS && problems.push(p);
  // a dropped guard is how a row gets rewritten unseen: say so beside what the rows show
  for (const name of missingGuards(ctx.db)) report(`the append-only guard trigger ${name} is missing`);
  const { db } = ctx;
  const rows = new Map<string, Record<string, unknown>>();
  const stored: [LeafKind, Record<string, unknown>[]][] = [
    ['movement', db.all(db.q.selectFrom('movements').selectAll())],
    ['audit', db.all(db.q.selectFrom('audit_log').selectAll())],
  ];
  for (const [kind, kindRows] of stored) for (const row of kindRows) rows.set(`${kind}:${leafIdOf(kind, row)}`, row);
  const leaves = db.all(
    db.q
      .selectFrom('tlog_leaves')
      .select(['idx', 'kind', 'ref', leafHashHexColumn(ctx)])
      .orderBy('idx'),
  );
  // PostgreSQL keeps the log's size in a head row; on SQLite the size is the leaves' own (migration 0018)
  if (db.engine === 'postgres') {
    const size = Number(db.first(db.q.selectFrom('tlog_head').select('size').where('one', '=', 1))?.size ?? 0);
    if (leaves.length !== size) report(`the log's head says ${size} leaves but ${leaves.length} are stored`);
  }
  const tree = new MerkleTree(sha256);
  const seen = new Set<string>();
  for (const leaf of leaves) {
    const index = Number(leaf.idx);
    if (index !== tree.size) report(`leaf ${tree.size} is missing (the next stored is ${index})`);
    const key = `${leaf.kind}:${leaf.ref}`;
    // SQLite refuses no second leaf for a record at insert (migration 0019): it is found here
    if (seen.has(key)) report(`leaf ${index}: the ${leaf.kind} ${leaf.ref} is logged a second time`);
    seen.add(key);
    const row = rows.get(key);
    // the tree is rebuilt from the rows as stored now: a rewritten row changes the roots
    const hash = row ? leafHashHex(encodeLeaf(leaf.kind, row)) : leaf.hash;
    if (!row) report(`leaf ${index}: the ${leaf.kind} ${leaf.ref} it records is gone from the database`);
    else if (hash !== leaf.hash) report(`leaf ${index}: the ${leaf.kind} ${leaf.ref} was rewritten after it was logged`);
    tree.appendLeafHash(Uint8Array.from(Buffer.from(hash, 'hex')));
  }
  for (const key of rows.keys()) if (!seen.has(key)) report(`the ${key.replace(':', ' ')} has no leaf in the log`);

  const checkpoints = db.all(db.q.selectFrom('tlog_checkpoints').select(['size', 'root', 'note']).orderBy('size'));
  const key = logKey(ctx);
  for (const c of checkpoints) {
    const opened = openSignedNote(c.note, key, verifyEd25519);
    if ('error' in opened) {
      report(`checkpoint at size ${c.size}: ${opened.error}`);
      continue;
    }
    const parsed = parseCheckpointBody(opened.body);
    if ('error' in parsed || parsed.size !== Number(c.size) || toBase64(parsed.root) !== c.root || parsed.origin !== key.name) {
      report(`checkpoint at size ${c.size}: its signed note does not say its size, root and origin`);
      continue;
    }
    if (parsed.size > tree.size) report(`checkpoint at size ${parsed.size}: the log holds only ${tree.size} leaves (truncated)`);
    else if (toBase64(tree.root(parsed.size)) !== c.root)
      report(`checkpoint at size ${parsed.size}: the rows give another root than it signed`);
  }
  return { leaves: leaves.length, checkpoints: checkpoints.length, problems };
}
