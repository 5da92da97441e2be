// A full disk (issue 11, item 2): SQLite's file really cannot grow (max_page_count at its current
// size), and the registry is used over HTTP: writes answer 507 with a plain message in the error
// shape, reads keep working, and the operator reads one log line per episode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { DISK_FULL_MESSAGE } from '@registry/http/app';
import { buildFixture } from '@test/support/fixture';
import { createTestApp, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let app: TestApp;
const logged: string[] = [];

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void buildFixture(r), log: (line) => logged.push(line), background: false });
  app = createTestApp(t.registry);
});
afterAll(() => t.close());

const mint = async () => t.call('/app/accessTokens', { method: 'POST', token: await app.jwt(), body: '{}' });

describe('a full disk', () => {
  it('answers writes 507, keeps reads working and logs once per episode', async () => {
    const first = await mint();
    expect(first.status).toBe(200);
    const token = ((await first.json()) as { token: string }).token;
    const raw = t.registry.db.raw;
    raw.pragma('wal_checkpoint(TRUNCATE)');
    const pages = raw.pragma('page_count', { simple: true }) as number;
    raw.pragma(`max_page_count = ${pages}`);

    // Each minted token is a new row: the free room in the file's last pages runs out within a few hundred.
    let full: Response | undefined;
    for (let i = 0; i < 2000 && !full; i++) {
      const res = await mint();
      if (res.status !== 200) full = res;
    }
    expect(full?.status).toBe(507);
    const body = strict.errorBody.parse(await full!.json());
    expect(body).toEqual({ statusCode: 507, message: DISK_FULL_MESSAGE, error: 'Insufficient Storage' });

    // more failing writes, and reads in between
    for (let i = 0; i < 3; i++) {
      expect((await mint()).status).toBe(507);
      const read = await t.call('/projects', { token });
      expect(read.status).toBe(200);
    }
    expect(logged.filter((l) => /disk is full/.test(l))).toHaveLength(1);
    expect(logged.filter((l) => /internal error/.test(l))).toEqual([]);

    // space comes back: the next write succeeds and the episode ends in one more line
    raw.pragma(`max_page_count = ${pages * 100}`);
    expect((await mint()).status).toBe(200);
    expect((await mint()).status).toBe(200);
    expect(logged.filter((l) => /no longer full/.test(l))).toHaveLength(1);
  });
});
