// The registry's log key as a person reviews it (docs/desk.md, "The registry's log key"): the note
// verifier key the registry serves at /transparency/v1/key and its fingerprint, the SHA-256 of the
// 32-byte Ed25519 public key in hex, in groups of four: what a person compares with a key obtained
// from the registry's operator some other way. The desk asks for it when a connection is added and
// when a person starts over, and pins the key the person saw.
import type { LogKey } from '@shared/desk/api';
import { toHex } from '@shared/transparency/bytes';
import { parseVerifierKey } from '@shared/transparency/note';
import { sha256 } from '@platform/log-crypto';
import { DeskFailure } from '../errors';
import type { FetchLike } from '../client/http';
import { transparencyGet } from './transport';

/** The fingerprint of a note verifier key; throws a DeskFailure naming `field` when it is not one. */
export function logKeyOf(text: string, field = 'logKey'): LogKey {
  const key = parseVerifierKey(text.trim());
  if ('error' in key) {
    throw new DeskFailure('invalid_input', `The registry's log key is not a key the desk can check: ${key.error}`, [
      `${field}: ${key.error}`,
    ]);
  }
  const hex = toHex(sha256(key.publicKey));
  return { key: text.trim(), fingerprint: hex.replace(/(.{4})(?!$)/g, '$1 ') };
}

/**
 * The key the registry at `baseUrl` serves now, or null when it publishes no transparency log
 * (404). Unreachable: the client error (the caller says so); any other answer: a DeskFailure.
 */
export async function fetchLogKey(baseUrl: string, fetch?: FetchLike): Promise<LogKey | null> {
  const { status, text } = await transparencyGet(baseUrl, fetch, 15_000)('/transparency/v1/key');
  if (status === 404) return null;
  if (status !== 200) throw new DeskFailure('registry_error', `The registry answered ${status} when asked for its log key`);
  return logKeyOf(text, 'the registry');
}

/**
 * The key the person reviewed against the one the registry serves now: the served one when they
 * agree; a conflict, in words, when they do not (the person saw another key than the desk would pin).
 */
export function confirmLogKey(reviewed: string | null, served: LogKey | null): LogKey | null {
  const wanted = reviewed === null ? null : logKeyOf(reviewed);
  if (wanted?.key === served?.key) return served;
  const said = (k: LogKey | null) => (k ? `the key ${k.key} (fingerprint ${k.fingerprint})` : 'no log key');
  throw new DeskFailure(
    'conflict',
    `The registry serves ${said(served)}, not ${said(wanted)} as reviewed: nothing was changed. Check where each key came from before you go on.`,
  );
}
