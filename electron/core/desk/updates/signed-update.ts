// An update is installed only when its manifest carries the pinned key's signature, it is newer
// than the running version, and the installer electron-updater downloaded is the one the signed
// manifest names (same version, same SHA-512: hashed again here, not taken from electron-updater).
// Each refusal becomes a notice that says what happened in words a user understands.
// No 'electron' import: tested under Node against a local update server with electron-updater.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { checkManifestSignature } from './update-signature';

/** What the user is told. */
export type UpdateNotice =
  | { kind: 'up-to-date'; version: string }
  | { kind: 'ready'; version: string }
  | { kind: 'refused'; reason: 'unsigned' | 'wrong-key' | 'tampered' | 'downgrade' | 'mismatch'; message: string }
  | { kind: 'failed'; message: string };

/** The verified manifest's facts: its version and the installers' SHA-512 (base64), by file name. */
export interface VerifiedManifest {
  version: string;
  sha512: Map<string, string>;
}

/** The part of electron-updater's AppUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<{ updateInfo: { version: string } } | null>;
  downloadUpdate(): Promise<string[]>;
  quitAndInstall(): void;
}

export interface SignedUpdatesOptions {
  updater: UpdaterLike;
  currentVersion: string;
  /** The folder the manifest and installers are published in (electron-updater's generic provider URL). */
  feedUrl: string;
  /** latest-linux.yml, latest.yml or latest-mac.yml. */
  channelFile: string;
  pinnedKey: string;
  /** Parses the manifest as electron-updater does (its parseUpdateInfo). */
  parseManifest: (text: string) => { version: string; files: { url: string; sha512: string }[] };
  fetch?: typeof globalThis.fetch;
}

const MESSAGES = {
  unsigned: 'The update was not installed: it carries no valid signature from Registry Desk’s release key.',
  'wrong-key': 'The update was not installed: it is signed with a key this copy of Registry Desk does not trust.',
  tampered: 'The update was not installed: it was changed after Registry Desk signed it (the signature does not match).',
  mismatch: 'The update was not installed: the file downloaded is not the one Registry Desk signed.',
} as const;

function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/).slice(0, 3).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

export class SignedUpdates {
  private ready: string | undefined;
  constructor(private readonly options: SignedUpdatesOptions) {
    // Nothing is downloaded or installed behind the checks below.
    options.updater.autoDownload = false;
    options.updater.autoInstallOnAppQuit = false;
  }

  /** Fetches and checks the manifest's signature; the verified facts or the notice refusing it. */
  async verifyFeed(): Promise<VerifiedManifest | UpdateNotice> {
    const fetch = this.options.fetch ?? globalThis.fetch;
    const base = this.options.feedUrl.replace(/\/?$/, '/');
    const manifestResponse = await fetch(new URL(this.options.channelFile, base));
    if (!manifestResponse.ok) return { kind: 'failed', message: `No update information could be read (HTTP ${manifestResponse.status}).` };
    const manifest = Buffer.from(await manifestResponse.arrayBuffer());
    const signatureResponse = await fetch(new URL(`${this.options.channelFile}.sig`, base));
    const signature = signatureResponse.ok ? await signatureResponse.text() : undefined;
    const check = checkManifestSignature(manifest, signature, this.options.pinnedKey);
    if (!check.ok) return { kind: 'refused', reason: check.reason, message: MESSAGES[check.reason] };
    const info = this.options.parseManifest(manifest.toString('utf8'));
    const order = compareVersions(info.version, this.options.currentVersion);
    if (order < 0) {
      return {
        kind: 'refused',
        reason: 'downgrade',
        message: `The update was not installed: it is version ${info.version}, older than the ${this.options.currentVersion} you have. An older version may have flaws that were fixed since.`,
      };
    }
    if (order === 0) return { kind: 'up-to-date', version: info.version };
    return { version: info.version, sha512: new Map(info.files.map((file) => [file.url.split('/').pop() ?? file.url, file.sha512])) };
  }

  /** Checks, downloads and verifies; a `ready` notice means install() will install that version. */
  async check(): Promise<UpdateNotice> {
    this.ready = undefined;
    try {
      const verified = await this.verifyFeed();
      if ('kind' in verified) return verified;
      const result = await this.options.updater.checkForUpdates();
      if (!result || result.updateInfo.version !== verified.version)
        return { kind: 'refused', reason: 'mismatch', message: MESSAGES.mismatch };
      const [file] = await this.options.updater.downloadUpdate();
      const name = file?.split(/[\\/]/).pop() ?? '';
      const expected = verified.sha512.get(name);
      const actual = file
        ? createHash('sha512')
            .update(await readFile(file))
            .digest('base64')
        : undefined;
      if (!expected || actual !== expected) return { kind: 'refused', reason: 'mismatch', message: MESSAGES.mismatch };
      this.ready = verified.version;
      return { kind: 'ready', version: verified.version };
    } catch (error) {
      return {
        kind: 'failed',
        message: `The update could not be checked: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      };
    }
  }

  /** Installs the update check() verified (quits the app); false when there is none. */
  install(): boolean {
    if (!this.ready) return false;
    this.options.updater.quitAndInstall();
    return true;
  }
}
