// Updates (electron/core/desk/updates) against a local update server with the real electron-updater
// (its DebUpdater, generic provider, run under Node with an app adapter and a node:http executor):
// a good update, a manifest changed after signing, a wrong key, no signature, a downgrade, and a
// server that shows the signed manifest to the check and another one to electron-updater.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebUpdater } from 'electron-updater';
import { parseUpdateInfo } from 'electron-updater/out/providers/Provider.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedUpdates } from '@desk/updates/signed-update';
import { signManifest } from '@desk/updates/update-signature';
import { NodeHttpExecutor } from '@test/support/node-http-executor';

const work = mkdtempSync(join(tmpdir(), 'updates-'));
const release = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const pinnedKey = release.publicKey.export({ type: 'spki', format: 'pem' }).toString();
/** What the server answers, by path; a function is asked on each request (counting them). */
const routes = new Map<string, Buffer | string | ((count: number) => Buffer | string)>();
const hits = new Map<string, number>();
let server: Server;
let feedUrl: string;

function manifestFor(version: string, file: string, bytes: Buffer): string {
  const sha512 = createHash('sha512').update(bytes).digest('base64');
  return `version: ${version}\nfiles:\n  - url: ${file}\n    sha512: ${sha512}\n    size: ${bytes.length}\npath: ${file}\nsha512: ${sha512}\nreleaseDate: '2026-11-28T00:00:00.000Z'\n`;
}

/** Publishes `version` (an installer, its manifest, the manifest's signature by `key`). */
function publish(version: string, key = release.privateKey): { installer: Buffer; manifest: string } {
  routes.clear();
  hits.clear();
  const file = `registry-desk_${version}_amd64.deb`;
  const installer = randomBytes(64 * 1024);
  const manifest = manifestFor(version, file, installer);
  routes.set(`/${file}`, installer);
  routes.set('/latest-linux.yml', manifest);
  routes.set('/latest-linux.yml.sig', signManifest(Buffer.from(manifest), key));
  return { installer, manifest };
}

let installs = 0;
function updates(): SignedUpdates {
  const dir = mkdtempSync(join(work, 'app-'));
  writeFileSync(join(dir, 'app-update.yml'), `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: registry-desk-updater\n`);
  mkdirSync(join(dir, 'cache'));
  const app = {
    version: '0.1.0',
    name: 'registry-desk',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'app-update.yml'),
    userDataPath: dir,
    baseCachePath: join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  };
  const updater = new DebUpdater(null, app);
  Object.assign(updater, { httpExecutor: new NodeHttpExecutor(), logger: null });
  updater.setFeedURL({ provider: 'generic', url: feedUrl });
  updater.quitAndInstall = () => void (installs += 1);
  return new SignedUpdates({
    updater,
    currentVersion: '0.1.0',
    feedUrl,
    channelFile: 'latest-linux.yml',
    pinnedKey,
    parseManifest: (text) => parseUpdateInfo(text, 'latest-linux.yml', new URL('latest-linux.yml', feedUrl)),
  });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    const route = routes.get(path);
    if (route === undefined) return void response.writeHead(404).end();
    const body = typeof route === 'function' ? route(count) : route;
    response.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

describe('updates', () => {
  it('downloads, verifies and installs a newer release signed with the pinned key', async () => {
    publish('0.2.0');
    const flow = updates();
    expect(await flow.check()).toEqual({ kind: 'ready', version: '0.2.0' });
    expect(hits.get('/registry-desk_0.2.0_amd64.deb')).toBe(1);
    expect(flow.install()).toBe(true);
    expect(installs).toBe(1);
  });

  it('refuses a manifest changed after signing, before downloading anything', async () => {
    const { manifest } = publish('0.2.0');
    routes.set('/latest-linux.yml', manifest.replace('version: 0.2.0', 'version: 0.2.1'));
    const flow = updates();
    expect(await flow.check()).toEqual({
      kind: 'refused',
      reason: 'tampered',
      message: 'The update was not installed: it was changed after Registry Desk signed it (the signature does not match).',
    });
    expect(hits.get('/registry-desk_0.2.0_amd64.deb')).toBeUndefined();
    expect(flow.install()).toBe(false);
  });

  it('refuses a release signed with another key, or not signed at all', async () => {
    publish('0.2.0', stranger.privateKey);
    expect(await updates().check()).toMatchObject({
      kind: 'refused',
      reason: 'wrong-key',
      message: expect.stringMatching(/does not trust/),
    });
    publish('0.2.0');
    routes.delete('/latest-linux.yml.sig');
    expect(await updates().check()).toMatchObject({
      kind: 'refused',
      reason: 'unsigned',
      message: expect.stringMatching(/no valid signature/),
    });
    routes.set('/latest-linux.yml.sig', '{"keyId":"nonsense"}');
    expect(await updates().check()).toMatchObject({ kind: 'refused', reason: 'unsigned' });
  });

  it('refuses a signed release older than the running one, and says when there is nothing newer', async () => {
    publish('0.0.9');
    expect(await updates().check()).toEqual({
      kind: 'refused',
      reason: 'downgrade',
      message:
        'The update was not installed: it is version 0.0.9, older than the 0.1.0 you have. An older version may have flaws that were fixed since.',
    });
    expect(hits.get('/registry-desk_0.0.9_amd64.deb')).toBeUndefined();
    publish('0.1.0');
    expect(await updates().check()).toEqual({ kind: 'up-to-date', version: '0.1.0' });
  });

  it('refuses an installer other than the signed one, even when the server shows electron-updater another manifest', async () => {
    const { manifest } = publish('0.2.0');
    const evil = randomBytes(64 * 1024);
    const evilManifest = manifestFor('0.2.0', 'registry-desk_0.2.0_amd64.deb', evil);
    // The signed manifest for the signature check, the attacker's for electron-updater's own request.
    routes.set('/latest-linux.yml', (count) => (count === 1 ? manifest : evilManifest));
    routes.set('/registry-desk_0.2.0_amd64.deb', evil);
    const flow = updates();
    expect(await flow.check()).toEqual({
      kind: 'refused',
      reason: 'mismatch',
      message: 'The update was not installed: the file downloaded is not the one Registry Desk signed.',
    });
    expect(flow.install()).toBe(false);
  });

  it('reports a server that is not there as a failure to check', async () => {
    routes.clear();
    expect(await updates().check()).toEqual({ kind: 'failed', message: 'No update information could be read (HTTP 404).' });
  });
});
