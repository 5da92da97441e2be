// The desk API's connections: a registry's address and its rule, an installation, a key the desk
// holds, the history verification's state and evidence, and a connection as the renderer sees it
// (api.ts re-exports them all).
import { z } from 'zod';
import { isoTime } from './field-schemas';

export const installationInfo = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  permissions: z.record(z.string(), z.string()),
});

/** Tokens must never cross the network in clear: what the desk says when a registry address is refused. */
export const REGISTRY_URL_RULE =
  'A remote registry address must start with https:// (http:// only for a registry on this computer: localhost, 127.0.0.1 or [::1])';

/** Whether `hostname` (as URL.hostname gives it) names this computer: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * An https: address, or an http: one on a loopback host (the embedded and local test registries).
 * Parsed by hand (shared code has no URL global); anything ambiguous (backslashes, whitespace,
 * control characters) is refused rather than read differently from the WHATWG parser.
 */
export function isAllowedRegistryUrl(url: string): boolean {
  if (/[\\\s\u0000-\u001f]/.test(url)) return false;
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(url);
  if (!match) return false;
  const scheme = match[1]!.toLowerCase();
  if (scheme === 'https') return true;
  if (scheme !== 'http') return false;
  const authority = match[2]!;
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostAndPort.startsWith('[') ? hostAndPort.slice(0, hostAndPort.indexOf(']') + 1) : hostAndPort.split(':')[0]!;
  return isLoopbackHost(host);
}

export const registryUrl = z.url({ protocol: /^https?$/ }).refine(isAllowedRegistryUrl, REGISTRY_URL_RULE);

/**
 * An app key the user picked: read by the host (Electron's open dialog, or the web host from the
 * uploaded file), never by the page, which holds only this handle until connections.* stores it.
 */
export const keyHandleId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a key handle from the desk');
export const pickedKey = z.object({ handle: keyHandleId, fileName: z.string() });
export type PickedKey = z.infer<typeof pickedKey>;

/**
 * Whether the registry's history verified at the last sync (docs/desk.md): the entries of the last
 * checkpoint the desk verified and the time the registry signed it; `unverifiable` for a registry
 * that publishes no transparency log (not an error); `failed` when it changed since it was verified.
 */
export const historyVerification = z.object({
  state: z.enum(['not_checked', 'verified', 'unverifiable', 'failed']),
  entries: z.number().int().nonnegative().nullable(),
  upTo: isoTime.nullable(),
  checkedAt: isoTime.nullable(),
  message: z.string().nullable(),
  /** Synced records no verified checkpoint covers yet (the next sync's does). */
  pending: z.number().int().nonnegative(),
  /** Failed checks kept as evidence (sync.historyEvidence lists them). */
  evidence: z.number().int().nonnegative(),
});
export type HistoryVerification = z.infer<typeof historyVerification>;

export const historyEvidence = z.object({
  foundAt: isoTime,
  kind: z.string(),
  message: z.string(),
  /** The signed checkpoint verified before, and the one that did not extend it. */
  keptCheckpoint: z.string().nullable(),
  latestCheckpoint: z.string().nullable(),
  /** The proof, leaves or records that show it, as JSON text. */
  proof: z.string().nullable(),
});
export type HistoryEvidence = z.infer<typeof historyEvidence>;

/**
 * The registry's transparency log key (docs/desk.md): the note verifier key it serves at
 * /transparency/v1/key and its fingerprint (SHA-256 of the 32-byte public key, hex, groups of four).
 */
export const logKey = z.object({ key: z.string(), fingerprint: z.string() });
export type LogKey = z.infer<typeof logKey>;
/** A note verifier key a person pasted or reviewed (checked by the desk: `<name>+<hash>+<key>`). */
export const logKeyText = z.string().trim().min(1, 'paste the whole key').max(1000);

export const connectionInfo = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['embedded', 'remote']),
  baseUrl: z.string(),
  appId: z.string(),
  /** Whether the app's private key could be read from the secret store. */
  keyStatus: z.enum(['ok', 'missing', 'unreadable', 'invalid']),
  keyMessage: z.string().optional(),
  /** Where the key lives: the OS keychain or the passphrase-encrypted file. */
  secretStore: z.enum(['keychain', 'encrypted-file', 'memory']),
  examinerRead: z.boolean(),
  installations: z.array(installationInfo),
  /** The operator account the desk acts as on the registry's operator endpoints, when it has one. */
  operatorId: z.string().optional(),
  /** The active connection's history verification. */
  history: historyVerification.optional(),
  /** The log key this connection's history is checked against (pinned when it was added, or at its first sync); null: none yet. */
  logKey: logKey.nullable().optional(),
});
export type ConnectionInfo = z.infer<typeof connectionInfo>;
