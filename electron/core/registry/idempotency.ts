// Idempotent operator writes: the answer of a write sent with an Idempotency-Key is stored in the same
// transaction as the change (a refusal's: as its refused audit entry), keyed by operator and key. The
// same key with the same request from the same operator within 24 hours gets that answer again and
// changes nothing; the same key with a different request is a 409. A write whose answer was lost (a
// dropped connection, a crash after the commit) can therefore be retried safely and gets one
// consistent answer; one that never committed (or failed with a 500) left no key and runs again.
//
// Across processes the key is claimed by the write's own transaction: its answer is inserted only
// where no live answer exists (the (operator_id, key) primary key), so of two requests with one key
// running at once on two processes, the second waits on the first's row, then finds it: PostgreSQL
// fails its serializable transaction (run again, it sees the first's answer), and the answer stored
// is the one both get (AnswerAlreadyStored rolls the second's changes back). Never a second effect.
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { canonicalJson } from '@shared/canonical-json';
import { IDEMPOTENCY_WINDOW_MS, MAX_IDEMPOTENCY_KEY_LENGTH } from '@shared/registry/vocabulary';
import type { RegistryContext } from './context';
import { badRequest, conflict, RegistryError } from './errors';

/** What makes two requests "the same": method, path and body (canonical JSON). */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

export function checkIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw badRequest(`Idempotency-Key: must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  return key;
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** The stored answer for this key and request, undefined when the key is new (or older than 24 h); 409 for another request. */
export function replayOf(ctx: RegistryContext, operatorId: string, key: string, hash: string): StoredAnswer | undefined {
  const { db } = ctx;
  const row = db.first(
    db.q
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'answer', 'created_at'])
      .where('operator_id', '=', operatorId)
      .where('key', '=', key),
  );
  if (!row || row.created_at <= ctx.clock.now() - IDEMPOTENCY_WINDOW_MS) return undefined;
  if (row.request_hash !== hash) throw conflict('This Idempotency-Key was already used for a different request');
  return { status: row.status, body: JSON.parse(row.answer) as unknown };
}

/**
 * Thrown inside a write's transaction when another request with the same key stored its answer
 * first: the write is rolled back (no audit entry: the attempt changed nothing) and `answer` is what
 * the request gets instead, the first's answer or 409 for a different request.
 */
export class AnswerAlreadyStored extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('Another request with this Idempotency-Key answered first');
    this.name = 'AnswerAlreadyStored';
  }
}

/**
 * Stores an answer (a success or a refusal); runs inside the write's (or the refusal entry's)
 * transaction. An expired row for the key is replaced; a live one (a concurrent request with the
 * same key, committed first) is kept and thrown as AnswerAlreadyStored.
 */
export function storeAnswer(ctx: RegistryContext, operatorId: string, key: string, hash: string, answer: StoredAnswer): void {
  const now = ctx.clock.now();
  const { db } = ctx;
  const { changes } = db.run(
    db.q
      .insertInto('idempotency_keys')
      .values({
        operator_id: operatorId,
        key,
        request_hash: hash,
        status: answer.status,
        answer: JSON.stringify(answer.body),
        created_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['operator_id', 'key'])
          .doUpdateSet((eb) => ({
            request_hash: eb.ref('excluded.request_hash'),
            status: eb.ref('excluded.status'),
            answer: eb.ref('excluded.answer'),
            created_at: eb.ref('excluded.created_at'),
          }))
          .where('idempotency_keys.created_at', '<=', now - IDEMPOTENCY_WINDOW_MS),
      ),
  );
  if (changes > 0) return;
  let first: StoredAnswer | undefined;
  try {
    first = replayOf(ctx, operatorId, key, hash);
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    first = { status: error.status, body: { statusCode: error.status, message: error.messages[0]!, error: STATUS_CODES[error.status] } };
  }
  if (!first) throw new Error('idempotency key neither stored nor found');
  throw new AnswerAlreadyStored(first);
}

/** Deletes keys older than the window (housekeeping). */
export function purgeIdempotencyKeys(ctx: RegistryContext): number {
  const { db } = ctx;
  return db.run(db.q.deleteFrom('idempotency_keys').where('created_at', '<=', ctx.clock.now() - IDEMPOTENCY_WINDOW_MS)).changes;
}
