// The client's request gate (electron/core/desk/client/request-gate.ts) on a made-up link: answers
// whose time the test sets, on a clock the test moves. It opens while answers come back as fast as
// the fastest, closes back to its floor when they queue, halves on a refusal and holds new
// requests back for a Retry-After.
import { describe, expect, it } from 'vitest';
import { createRequestGate, GATE_CAP } from '@desk/client/request-gate';

/**
 * A link where each answer takes `answerMs(inFlight)` of the test's clock: GATE_CAP callers queue at the
 * gate (as the sync's lanes do) and the test plays the answers out in time order.
 */
async function drive(answerMs: (inFlight: number) => number, requests: number) {
  let now = 0;
  const gate = createRequestGate({ now: () => now, sleep: async () => {} });
  const answers: { at: number; answer: () => void }[] = [];
  let inFlight = 0;
  let started = 0;
  let lanesDone = 0;
  const lanes = Array.from({ length: GATE_CAP }, async () => {
    while (started < requests) {
      started++;
      await gate.run(async () => {
        inFlight++;
        const at = now + answerMs(inFlight);
        await new Promise<void>((answer) => answers.push({ at, answer }));
        inFlight--;
      });
    }
    lanesDone++;
  });
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (await settle(); lanesDone < lanes.length; await settle()) {
    answers.sort((a, b) => a.at - b.at);
    const next = answers.shift();
    if (!next) break;
    now = next.at;
    next.answer();
  }
  await Promise.all(lanes);
  return gate.stats();
}

describe('the request gate', () => {
  it('opens up to its cap while answers take a round trip however many are in flight', async () => {
    const stats = await drive(() => 50, 600);
    expect(stats.limit).toBe(GATE_CAP);
  });

  it('stays at its floor of 8 when answers slow down with each one more in flight', async () => {
    // A registry (or a line) that serves one at a time: 2 ms each, so n in flight take 2n ms.
    const stats = await drive((n) => 2 * n, 300);
    expect(stats.limit).toBe(8);
  });

  it('halves on a refusal, to one at the least, and holds new requests until a Retry-After has passed', async () => {
    let endHold: () => void = () => {};
    const waits: number[] = [];
    const gate = createRequestGate({
      sleep: (ms) => {
        waits.push(ms);
        return new Promise<void>((resolve) => (endHold = resolve));
      },
    });
    gate.backOff();
    expect(gate.stats().limit).toBe(4);
    for (let i = 0; i < 5; i++) gate.backOff();
    expect(gate.stats().limit).toBe(1);
    gate.backOff(3000);
    expect(waits).toEqual([3000]);
    let ran = false;
    const held = gate.run(async () => void (ran = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toBe(false);
    endHold();
    await held;
    expect(ran).toBe(true);
  });
});
