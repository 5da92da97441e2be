// What an audit entry may hold, bounded: a request body is kept as its SHA-256 digest and size plus a
// redacted summary of at most AUDIT_FIELD_MAX_CHARS characters, so a refused 1 MB body costs the
// append-only log a few kilobytes, never a megabyte. The digest lets an auditor holding the original
// body prove it is the one received.
import { createHash } from 'node:crypto';

/** The largest JSON text one field of an entry's detail (input, result, error) keeps. */
export const AUDIT_FIELD_MAX_CHARS = 4096;

/** The digest and size of a request body as received (its bytes, before any parsing). */
export function bodyDigest(text: string): { sha256: string; bytes: number } {
  const bytes = Buffer.byteLength(text, 'utf8');
  return { sha256: createHash('sha256').update(text, 'utf8').digest('hex'), bytes };
}

/**
 * `value` itself when its JSON fits the cap, else a summary: its JSON's first characters (already
 * redacted by the caller), marked truncated, with the full JSON's length.
 */
export function capped(value: unknown): unknown {
  const json = JSON.stringify(value);
  if (json === undefined || json.length <= AUDIT_FIELD_MAX_CHARS) return value;
  return { truncated: true, jsonChars: json.length, preview: json.slice(0, AUDIT_FIELD_MAX_CHARS - 200) };
}

/** Every top-level field of a (redacted) detail object capped. */
export function cappedDetail(detail: unknown): unknown {
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) return capped(detail);
  return Object.fromEntries(Object.entries(detail as Record<string, unknown>).map(([k, v]) => [k, capped(v)]));
}
