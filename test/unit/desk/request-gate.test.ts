// The client's request gate (electron/core/desk/client/request-gate.ts) on a made-up link: answers
// whose time the test sets, on a clock the test moves. It opens while answers come back as fast as
// the fastest, closes back to its floor when they queue, stays open when only some answers are late
// (the link's jitter, the desk's own work), halves on a refusal and holds new requests back for a
// Retry-After.
import { describe, expect, it } from 'vitest';
import { createRequestGate, GATE_CAP } from '@desk/client/request-gate';

/** The desk's work on its one thread: each answer's parsing, and a batch's commit every `commitEvery` answers. */
interface DeskWork {
  perAnswerMs: number;
  commitEvery: number;
  commitMs: number;
}

/**
 * A link where each answer takes `answerMs(inFlight)` of the test's clock: GATE_CAP callers queue at the
 * gate (as the sync's lanes do) and the test plays the answers out in time order. With `desk`, an
 * answer is noticed only when the desk's thread is done with the ones before it.
 */
async function drive(answerMs: (inFlight: number) => number, requests: number, desk?: DeskWork) {
  let now = 0;
  let deskFreeAt = 0;
  let noticed = 0;
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
    now = Math.max(next.at, deskFreeAt);
    noticed++;
    if (desk) deskFreeAt = now + desk.perAnswerMs + (noticed % desk.commitEvery === 0 ? desk.commitMs : 0);
    next.answer();
  }
  await Promise.all(lanes);
  return { ...gate.stats(), endedAtMs: now };
}

describe('the request gate', () => {
  it('opens up to its cap while answers take a round trip however many are in flight', async () => {
    const stats = await drive(() => 50, 600);
    expect(stats.limit).toBe(GATE_CAP);
  });

  it('stays at its floor of 8 when answers slow down with each one more in flight', async () => {
    // A registry (or a line) that serves one at a time: 2 ms each, so n in flight take 2n ms. 2,000
    // answers: past the 1,000 after which the fastest is forgotten (then 16 ms, 8 in flight).
    const stats = await drive((n) => 2 * n, 2000);
    expect(stats.limit).toBe(8);
    expect(stats.peakInFlight).toBeLessThanOrEqual(12);
  });

  it('stays open on a 50 ms link whose answers vary, beside a desk that notices them one at a time', async () => {
    // Up to 48 ms late, however many are in flight (the registry's pauses, the route's jitter), and
    // a desk that parses each answer (0.5 ms) and commits a batch of 100 (30 ms): the desk alone
    // needs 1.6 s (32 round trips) for 2,000 answers. An average of answer times read that as a
    // queue and kept the limit near its floor: 74 round trips.
    let answered = 0;
    const jitterMs = () => ((answered++ * 7919) % 97) / 2;
    const stats = await drive(() => 50 + jitterMs(), 2000, { perAnswerMs: 0.5, commitEvery: 100, commitMs: 30 });
    expect(stats.endedAtMs / 50).toBeLessThanOrEqual(45);
  });

  it('stays far from its cap when the desk no longer keeps up with the answers', async () => {
    // 5 ms of the desk's thread per answer: at most 10 a round trip of 50 ms, so more in flight
    // would only wait for the desk. The limit swings between its floor and about 40 (a round trip
    // passes before a raise shows in the answers), never near the cap.
    const stats = await drive(() => 50, 600, { perAnswerMs: 5, commitEvery: 100, commitMs: 0 });
    expect(stats.peakInFlight).toBeLessThanOrEqual(48);
    expect(stats.endedAtMs / 50).toBeGreaterThanOrEqual(60); // the desk's own 3 s
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
