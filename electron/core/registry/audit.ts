// The audit log: one append-only entry per write attempt (HTTP operator writes that passed
// authentication, CLI commands, the demo seed), written in the same transaction as the change it
// records; a refused or failed attempt writes its entry in a transaction of its own, after the
// attempt's changes were rolled back. No secret ever enters it: fields that could hold one (keys,
// tokens, signatures) are replaced by a short fingerprint.
import { createHash } from 'node:crypto';
import type { AuditOutcome } from '@shared/registry/vocabulary';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { RegistryContext } from './context';
import type { RegistryTables } from './schema';
import { cappedDetail } from './audit-record';
import { RegistryError } from './errors';
import { DatabaseUnavailableError } from '../platform/db/database';
import { AnswerAlreadyStored } from './idempotency';
import { appendLeaf } from './transparency/leaf';

/** Who made an attempt: an operator over HTTP, or a named actor (the CLI and its OS user, the seed). */
export interface AuditActor {
  operatorId: string | null;
  /** `operator:<id>`, `cli:<os user>`, `seed:demo`. */
  actor: string;
}

export interface AuditEntryInput extends AuditActor {
  action: string;
  targetIds: string[];
  outcome: AuditOutcome;
  detail: Record<string, unknown>;
}

export interface AuditEntry {
  id: string;
  at: string;
  operatorId: string | null;
  actor: string;
  action: string;
  targetIds: string[];
  outcome: AuditOutcome;
  detail: Record<string, unknown>;
}

const SECRET_FIELD = /pem|^token$|^jwt$|signature|secret|password|passphrase|private/i;

/** A copy of `value` with every field that could hold a secret replaced by a fingerprint. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] =
      SECRET_FIELD.test(key) && v !== undefined && v !== null
        ? `[redacted sha256:${createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 12)}]`
        : redact(v, depth + 1);
  }
  return out;
}

/**
 * The ids an attempt acts on, from its input and its result: every string field named `id` or
 * ending in `Id`, and wallet addresses, one level into nested objects (transfer accounts).
 */
export function targetIdsOf(...sources: unknown[]): string[] {
  const ids = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (typeof value !== 'object' || value === null || depth > 1) return;
    if (Array.isArray(value)) return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'string' && v !== '' && (key === 'id' || /Id$/.test(key) || /[aA]ddress$/.test(key)) && !/^token/i.test(key)) {
        ids.add(key.endsWith('ddress') ? v.toLowerCase() : v);
      } else if (typeof v === 'object') visit(v, depth + 1);
    }
  };
  for (const source of sources) visit(source, 0);
  return [...ids].slice(0, 50);
}

// Compiled once per connection: every write appends one. RETURNING * gives the row as stored, which
// its transparency-log leaf is encoded from.
const insertTarget = (v: { seq: number; target: string }, q: Kysely<RegistryTables>) =>
  q.insertInto('audit_targets').values({ seq: v.seq, target_id: v.target });
const insertEntry = (v: Insertable<RegistryTables['audit_log']>, q: Kysely<RegistryTables>) =>
  q
    .insertInto('audit_log')
    .values({
      id: v.id,
      at: v.at,
      operator_id: v.operator_id,
      actor: v.actor,
      action: v.action,
      target_ids: v.target_ids,
      outcome: v.outcome,
      detail: v.detail,
    })
    .returningAll();

/** Appends one entry; the caller runs it inside the transaction it belongs to. */
export function appendAudit(ctx: RegistryContext, entry: AuditEntryInput): string {
  const id = ctx.newId();
  const targets = [...new Set(entry.targetIds)];
  const row = ctx.db.prepared(insertEntry).first({
    id,
    at: ctx.clock.now(),
    operator_id: entry.operatorId,
    actor: entry.actor,
    action: entry.action,
    target_ids: JSON.stringify(targets),
    outcome: entry.outcome,
    detail: JSON.stringify(cappedDetail(redact(entry.detail))),
  });
  if (!row) throw new Error('the audit entry was not stored');
  const addTarget = ctx.db.prepared(insertTarget);
  for (const target of targets) addTarget.run({ seq: row.seq, target });
  // the entry's transparency-log leaf, from the row as stored, in this same transaction
  appendLeaf(ctx, 'audit', row);
  return id;
}

const lastMovement = (_: Record<string, never>, q: Kysely<RegistryTables>) =>
  q.selectFrom('movements').select((eb) => eb.fn.coalesce(eb.fn.max('id'), sql.lit(0)).as('id'));
const lastMovementId = (ctx: RegistryContext): number => ctx.db.prepared(lastMovement).first({})?.id ?? 0;

const linkEntry = (v: { after: number; entryId: string }, q: Kysely<RegistryTables>) =>
  q
    .insertInto('movement_audit')
    .columns(['movement_id', 'audit_seq'])
    .expression((eb) =>
      eb
        .selectFrom(['movements as m', 'audit_log as l'])
        .select(['m.id', 'l.seq'])
        .where('m.id', '>', v.after)
        .where('l.id', '=', v.entryId),
    );

/** Records the entry as the maker of every movement appended since `after` (in this transaction). */
function linkMovements(ctx: RegistryContext, after: number, entryId: string): void {
  ctx.db.prepared(linkEntry).run({ after, entryId });
}

export interface AuditedAttempt extends AuditActor {
  action: string;
  /** The attempt's input as received (redacted and capped before it is stored). */
  input: unknown;
  /**
   * The validated input the entry's targets are read from; absent: `input` (the CLI's and the desk's
   * inputs are built by code); null: none (an HTTP body refused before it was validated).
   */
  targetSource?: unknown;
  /** The request body's SHA-256 and size, when the attempt came with one (HTTP). */
  request?: { sha256: string; bytes: number };
  /** Targets known before the attempt runs (path parameters). */
  targetIds?: string[];
}

const requestOf = (attempt: AuditedAttempt) => (attempt.request ? { request: attempt.request } : {});
const sourceOf = (attempt: AuditedAttempt): unknown => (attempt.targetSource === undefined ? attempt.input : attempt.targetSource);

export interface AuditHooks<T> {
  /** Runs inside the transaction of a successful attempt, after its entry (e.g. storing the answer). */
  succeeded?(result: T, entryId: string): void;
  /** Runs inside the transaction of a refused attempt's entry. */
  refused?(error: RegistryError, entryId: string): void;
}

/**
 * Runs one write attempt with its audit entry: the change and a `succeeded` entry commit together;
 * a RegistryError (400/403/404/409...) rolls the change back and leaves one `refused` entry; any other
 * error one `failed` entry. The error is then rethrown.
 */
export function audited<T>(ctx: RegistryContext, attempt: AuditedAttempt, run: () => T, hooks: AuditHooks<T> = {}): T {
  const base = { operatorId: attempt.operatorId, actor: attempt.actor, action: attempt.action };
  try {
    return ctx.db.transaction(() => {
      const lastMovement = lastMovementId(ctx);
      const result = run();
      const entryId = appendAudit(ctx, {
        ...base,
        targetIds: [...(attempt.targetIds ?? []), ...targetIdsOf(sourceOf(attempt), result)],
        outcome: 'succeeded',
        detail: { ...requestOf(attempt), input: attempt.input ?? null, result: result ?? null },
      });
      linkMovements(ctx, lastMovement, entryId);
      hooks.succeeded?.(result, entryId);
      return result;
    });
  } catch (error) {
    // An attempt whose outcome the registry cannot know or record (the database went away) leaves
    // no entry: a `failed` entry would be wrong if its COMMIT did go through.
    // Nor does one that found its Idempotency-Key answered by a concurrent request: it changed nothing.
    if (error instanceof DatabaseUnavailableError || error instanceof AnswerAlreadyStored) throw error;
    const refused = error instanceof RegistryError;
    ctx.db.transaction(() => {
      const entryId = appendAudit(ctx, {
        ...base,
        targetIds: [...(attempt.targetIds ?? []), ...targetIdsOf(sourceOf(attempt))],
        outcome: refused ? 'refused' : 'failed',
        detail: {
          ...requestOf(attempt),
          input: attempt.input ?? null,
          error: refused ? { status: error.status, message: error.messages } : { message: 'internal error' },
        },
      });
      if (refused) hooks.refused?.(error, entryId);
    });
    throw error;
  }
}

/** Records a refusal that happened before an attempt could run (a role too low, a bad key). */
export function auditRefusal(
  ctx: RegistryContext,
  attempt: AuditedAttempt,
  error: RegistryError,
  hooks: Pick<AuditHooks<unknown>, 'refused'> = {},
): void {
  ctx.db.transaction(() => {
    const entryId = appendAudit(ctx, {
      operatorId: attempt.operatorId,
      actor: attempt.actor,
      action: attempt.action,
      targetIds: [...(attempt.targetIds ?? []), ...targetIdsOf(sourceOf(attempt))],
      outcome: 'refused',
      detail: { ...requestOf(attempt), input: attempt.input ?? null, error: { status: error.status, message: error.messages } },
    });
    hooks.refused?.(error, entryId);
  });
}
