// The PostgreSQL bench's finish→processed latency: a reservation finished on one server process and
// polled on the other until the queue has processed it.
import type { BenchFigure } from '@bench/types';
import type { World } from './postgres-world';
import { percentile } from './percentile';

const LATENCY_SAMPLES = 400;
export const LATENCY_FLOWS = 8;

/** Reserve and finish on one process, poll on the next: the queue must move whichever process took it. */
export async function finishToProcessed(bases: string[], w: World): Promise<number[]> {
  const samples: number[] = [];
  let n = 0;
  async function flow(f: number) {
    const seller = w.sellers[f % w.sellers.length]!;
    const headers = { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' };
    const path = `/organizations/${seller.id}/warehouse/inventory/reservations`;
    while (samples.length < LATENCY_SAMPLES) {
      const on = bases[n++ % bases.length]!;
      const poll = bases[n % bases.length]!;
      const reserved = await fetch(`${on}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ creditId: seller.credits[0], amount: 0.5 }),
      });
      if (reserved.status !== 200) throw new Error(`reserve answered ${reserved.status}: ${await reserved.text()}`);
      const { id } = (await reserved.json()) as { id: string };
      const started = performance.now();
      const finished = await fetch(`${on}${path}/${id}/transfer_retire`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ receiverId: w.buyer, retirementData: { reason: 'Bench', beneficiaryName: 'Bench beneficiary' } }),
      });
      if (finished.status !== 200) throw new Error(`finish answered ${finished.status}: ${await finished.text()}`);
      await finished.arrayBuffer();
      for (;;) {
        const res = await fetch(`${poll}${path}/${id}`, { headers });
        const reservation = (await res.json()) as { isComplete: boolean; state: string };
        if (reservation.isComplete) {
          if (reservation.state !== 'processed') throw new Error(`reservation ${id} ended ${reservation.state}`);
          break;
        }
      }
      samples.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: LATENCY_FLOWS }, (_, f) => flow(f)));
  return samples.sort((a, b) => a - b);
}

/** The latencies' p50 and p99 (sorted, in ms), p99 against its target. */
export function latencyFigures(latencies: number[]): BenchFigure[] {
  const p99 = percentile(latencies, 99);
  return [
    {
      suite: 'postgres',
      name: `finish→processed p50 (2 processes, ${LATENCY_FLOWS} flows)`,
      value: percentile(latencies, 50),
      unit: 'ms',
    },
    {
      suite: 'postgres',
      name: `finish→processed p99 (${latencies.length} samples)`,
      value: p99,
      unit: 'ms',
      target: '< 250 ms',
      pass: p99 < 250,
    },
  ];
}
