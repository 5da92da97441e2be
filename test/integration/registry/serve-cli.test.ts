// npm run serve as a real child process against a real data folder: the demo seed and its
// credentials, stopping on SIGTERM and SIGINT, an existing registry kept, the test clock, and bad
// options refused before anything is written.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strict } from '@shared/registry/resources';
import { makeDataDir } from '@test/support/registry';
import { NODE_ARGS, ROOT, rowCounts, SERVE } from '@test/support/admin-cli';
import { appJwt, credentialsSchema, startServe, stopServe, type ServeProcess } from '@test/support/serve-process';

describe('npm run serve', { timeout: 120_000 }, () => {
  const data = makeDataDir('cli-serve-');
  let serve: ServeProcess | undefined;
  afterAll(() => {
    serve?.child.kill('SIGKILL');
    data.remove();
  });

  it('seeds the demo registry, serves it with the demo credentials, and stops cleanly on SIGTERM', async () => {
    serve = await startServe(['--data', data.dir, '--port', '0', '--seed', 'demo']);
    expect(serve.lines.join('\n')).toMatch(/DEMO ONLY/);
    const credentials = credentialsSchema.parse(JSON.parse(readFileSync(join(data.dir, 'demo-credentials.json'), 'utf8')));
    const jwt = await appJwt(credentials.app.id, credentials.app.privateKeyPem);

    const tokenRes = await fetch(`${serve.url}/app/installations/${credentials.installations[0]!.id}/accessTokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(tokenRes.status).toBe(200);
    const token = strict.accessToken.parse(await tokenRes.json());
    // The demo app holds the examiner grant, so its installation tokens show it beside their own.
    expect(token.permissions).toEqual({ organization_info: 'VIEW', organization_warehouse: 'WRITE', examiner: 'READ' });

    const listRes = await fetch(`${serve.url}/app/installations`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(listRes.status).toBe(200);
    const list = (await listRes.json()) as { installations: { id: string; organization: { id: string } }[] };
    expect(list.installations.map((i) => [i.id, i.organization.id])).toEqual(
      credentials.installations.map((i) => [i.id, i.organizationId]),
    );

    // without --test-clock there is no clock control
    const clockRes = await fetch(`${serve.url}/__test__/clock/advance`, {
      method: 'POST',
      body: '{"ms":1000}',
      headers: { 'content-type': 'application/json' },
    });
    expect(clockRes.status).toBe(404);

    expect(await stopServe(serve, 'SIGTERM')).toBe(0);
    serve = undefined;
  });

  it('keeps an existing registry instead of seeding it again; --test-clock moves the registry clock', async () => {
    const before = rowCounts(data.dir);
    serve = await startServe(['--data', data.dir, '--port', '0', '--seed', 'demo', '--test-clock']);
    expect(serve.lines.join('\n')).toMatch(/keeping the existing data/);
    expect(serve.stderr.join('\n')).toMatch(/--test-clock is for end-to-end tests only/);
    expect(rowCounts(data.dir)).toEqual(before);

    const credentials = credentialsSchema.parse(JSON.parse(readFileSync(join(data.dir, 'demo-credentials.json'), 'utf8')));
    const jwt = await appJwt(credentials.app.id, credentials.app.privateKeyPem);
    const list = () => fetch(`${serve!.url}/app/installations`, { headers: { authorization: `Bearer ${jwt}` } });
    expect((await list()).status).toBe(200);

    const bad = await fetch(`${serve.url}/__test__/clock/advance`, {
      method: 'POST',
      body: '{"ms":-5}',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(strict.errorBody.parse(await bad.json()).statusCode).toBe(400);

    const advanced = await fetch(`${serve.url}/__test__/clock/advance`, {
      method: 'POST',
      body: JSON.stringify({ ms: 3_600_000 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(advanced.status).toBe(200);
    const { now } = z.object({ now: z.iso.datetime() }).parse(await advanced.json());
    expect(Date.parse(now) - Date.now()).toBeGreaterThan(3_500_000);
    // an hour later for the registry, the JWT signed for "now" has expired
    expect((await list()).status).toBe(401);

    expect(await stopServe(serve, 'SIGINT')).toBe(0);
    serve = undefined;
  });

  it('refuses bad options with exit 1 and a sentence naming each, not JSON', () => {
    const serveRefusal = (...args: string[]) => {
      const result = spawnSync(process.execPath, [...NODE_ARGS, SERVE, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^serve: /);
      expect(result.stderr).toContain('"npm run serve -- --help" lists every option.');
      expect(result.stderr).not.toMatch(/^\{/m);
      return result.stderr;
    };
    const error = serveRefusal('--data', data.dir, '--port', '70000', '--rate-limit', 'often');
    expect(error).toMatch(/--port/);
    expect(error).toMatch(/--rate-limit/);
    // Nothing is written anywhere: the refusal comes before the registry opens.
    const credentialsDir = join(data.dir, 'credentials-elsewhere');
    expect(serveRefusal('--data', data.dir, '--credentials-dir', credentialsDir, '--seed', 'demo')).toContain(
      'serve: --credentials-dir goes with --database only: with --data, --seed demo writes demo-credentials.json into the --data folder',
    );
    expect(existsSync(credentialsDir)).toBe(false);
  });
});
