// Idempotent issuance across a SIGKILL: a real server process is killed in the middle of a burst of
// issuances, each sent with its own Idempotency-Key; after a restart on the same data folder every
// request is sent again with its key. Each issuance happened exactly once: the ones committed before
// the kill are answered from the stored answer (the same one, if it had been received), the others run now.
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { openRegistry } from '@registry/open';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { createTestOperator, type TestOperator } from '@test/support/operators';
import { makeDataDir } from '@test/support/registry';
import { startServerProcess, type ServerProcess } from '@test/support/registry-processes';

const BURST = 60;
const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const c of cleanups.splice(0)) c();
});

/** A server process on the data folder (killed after each test if still running). */
async function startServer(dir: string): Promise<ServerProcess> {
  const server = await startServerProcess(dir);
  children.push(server.child);
  return server;
}

async function operatorToken(url: string, operator: TestOperator): Promise<string> {
  const res = await fetch(`${url}/operator/v1/tokens`, { method: 'POST', headers: { authorization: `Bearer ${await operator.jwt()}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** Issuance i: its own amount (1 t + i grams), so each one can be found in the books. */
const issuance = (f: Fixture, i: number) => ({
  projectId: f.projectId,
  vintage: '2030',
  amount: (1_000_000 + i) / 1_000_000,
  bufferBasisPoints: 0,
  monitoringPeriodStart: '2030-01-01',
  monitoringPeriodEnd: '2030-12-31',
  verificationBodyId: f.validatorId,
});

type Sent = { i: number; status: number | 'no answer'; answer?: string };

function issue(url: string, token: string, f: Fixture, i: number): Promise<Sent> {
  return fetch(`${url}/operator/v1/issuances`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `crash-issue-${i}` },
    body: JSON.stringify(issuance(f, i)),
  }).then(
    async (res) => ({ i, status: res.status, answer: await res.text() }),
    () => ({ i, status: 'no answer' as const }),
  );
}

describe('idempotent issuance across a SIGKILL', () => {
  it('issues each request exactly once when every request is replayed with its key after a restart', async () => {
    const data = makeDataDir('operator-crash-');
    cleanups.push(data.remove);
    const setup = openRegistry({ dataDir: data.dir });
    const f = buildFixture(setup);
    const manager = createTestOperator(setup, 'manager', 2);
    setup.close();

    const first = await startServer(data.dir);
    const token = await operatorToken(first.url, manager);
    let answered = 0;
    let killed: Promise<void> | undefined;
    const burst = Array.from({ length: BURST }, (_, i) =>
      issue(first.url, token, f, i).then((sent) => {
        if (sent.status !== 'no answer' && ++answered === BURST / 4) {
          const exited = new Promise<void>((resolve) => first.child.once('exit', () => resolve()));
          first.child.kill('SIGKILL');
          killed = exited;
        }
        return sent;
      }),
    );
    const results = await Promise.all(burst);
    await killed;
    const before = results.filter((r) => r.status === 201);
    expect(before.length).toBeGreaterThanOrEqual(BURST / 4);
    expect(results.some((r) => r.status === 'no answer')).toBe(true);

    const second = await startServer(data.dir);
    const token2 = await operatorToken(second.url, manager);
    const replays = await Promise.all(Array.from({ length: BURST }, (_, i) => issue(second.url, token2, f, i)));
    for (const replay of replays) {
      expect(replay.status).toBe(201);
      const original = results[replay.i]!;
      if (original.status === 201) expect(replay.answer).toBe(original.answer);
    }
    // a second round of replays changes nothing more
    const again = await Promise.all(Array.from({ length: 5 }, (_, i) => issue(second.url, token2, f, i)));
    for (const a of again) expect(a.answer).toBe(replays[a.i]!.answer);

    const check = openRegistry({ dataDir: data.dir });
    try {
      const db = check.db.raw;
      for (let i = 0; i < BURST; i++) {
        const events = db.prepare("SELECT COUNT(*) AS n FROM credit_events WHERE type = 'issuance' AND amount = ?").get(1_000_000 + i) as {
          n: number;
        };
        expect(events.n, `issuance ${i}`).toBe(1);
      }
      const keys = db.prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key LIKE 'crash-issue-%'").get() as { n: number };
      expect(keys.n).toBe(BURST);
      const succeeded = db
        .prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'credits.issue' AND outcome = 'succeeded'")
        .get() as {
        n: number;
      };
      expect(succeeded.n).toBe(BURST);
    } finally {
      check.close();
    }
    second.child.kill('SIGKILL');
  });
});
