// The shell's log file (electron/core/desk/app-log): timestamped lines from the clock, rotation by
// size, and no secret (keys, tokens, passwords) ever written, whatever line it arrives in.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRotatingLog } from '@desk/app-log/rotating-log';
import { diagnosticsText } from '@desk/app-log/diagnostics';
import { redactSecrets } from '@desk/app-log/redact';
import { ManualClock } from '@platform/clock';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'app-log-'));
  dirs.push(dir);
  return join(dir, 'logs');
}

describe('the log file', () => {
  it('writes timestamped lines from the clock, one per entry, errors remembered for diagnostics', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const log = createRotatingLog({ dir: tempDir(), clock });
    log.write('desk started');
    log.write('sync failed:\nconnection refused', 'error');
    expect(readFileSync(log.file, 'utf8')).toBe(
      '2026-01-02T03:04:05.000Z info  desk started\n2026-01-02T03:04:05.000Z ERROR sync failed: ⏎ connection refused\n',
    );
    expect(log.recentErrors()).toEqual(['2026-01-02T03:04:05.000Z ERROR sync failed: ⏎ connection refused']);
  });

  it('rotates by size, keeping the newest files only', () => {
    const dir = tempDir();
    const log = createRotatingLog({ dir, clock: new ManualClock(0), maxBytes: 200, keep: 2 });
    for (let i = 0; i < 20; i += 1) log.write(`line ${i} ${'x'.repeat(40)}`);
    expect(readdirSync(dir).sort()).toEqual(['desk.1.log', 'desk.2.log', 'desk.log']);
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(200);
    expect(readFileSync(join(dir, 'desk.log'), 'utf8')).toContain('line 19 ');
    expect(readFileSync(join(dir, 'desk.2.log'), 'utf8')).not.toContain('line 0 ');
    expect(existsSync(join(dir, 'desk.3.log'))).toBe(false);
  });

  it('never writes a private key, a wallet key, a token or a password', () => {
    const log = createRotatingLog({ dir: tempDir(), clock: new ManualClock(0) });
    const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const wallet = `0x${randomBytes(32).toString('hex')}`;
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJkZXNrIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const secrets = [pem.split('\n')[1]!, wallet.slice(2), jwt, 'hunter2-passphrase', 'opaque-api-token-123', 's3cr3t'];
    log.write(`import failed for key ${pem}`, 'error');
    log.write(`signing with ${wallet}`);
    log.write(`GET /v1/projects authorization: Bearer ${jwt}`);
    log.write(`saved {"passphrase": "hunter2-passphrase", "token": "opaque-api-token-123"}`);
    log.write('connecting to https://operator:s3cr3t@registry.example.org/v1');
    const text = readFileSync(log.file, 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).toContain('[pem removed]');
    expect(text).toContain('registry.example.org/v1');
    expect(log.recentErrors().join('\n')).not.toContain(secrets[0]);
  });

  it('leaves ordinary lines alone', () => {
    for (const line of ['sync finished: 1,204 projects in 3.2 s', 'the desk service stopped (exit code 0)', 'GET /v1/projects 200'])
      expect(redactSecrets(line)).toBe(line);
  });
});

describe('Copy diagnostics', () => {
  it('lists versions, paths, the secret store and the last errors', () => {
    const text = diagnosticsText({
      appVersion: '0.1.0',
      versions: { electron: '45.5.0', chrome: '142.0', node: '22.20.0', v8: undefined },
      platform: 'linux',
      arch: 'x64',
      osRelease: '6.8.0',
      paths: { 'Data folder': '/home/a/.config/Registry Desk', 'Logs folder': '/home/a/.config/Registry Desk/logs' },
      secretStore: 'OS keychain (keytar)',
      recentErrors: ['2026-01-02T03:04:05.000Z ERROR sync failed'],
    });
    expect(text).toBe(
      [
        'Registry Desk 0.1.0',
        'Runtime: electron 45.5.0, chrome 142.0, node 22.20.0',
        'System: linux x64 6.8.0',
        'Secret store: OS keychain (keytar)',
        'Data folder: /home/a/.config/Registry Desk',
        'Logs folder: /home/a/.config/Registry Desk/logs',
        'Last errors:',
        '  2026-01-02T03:04:05.000Z ERROR sync failed',
      ].join('\n'),
    );
  });
});
