// How far the registry's clock is from the desk's, from the Date header of recent answers.
import type { HttpAnswer } from './http';

/** registry clock − desk clock, from the Date header of the last few answers. */
export function createClockOffsets() {
  const offsets: number[] = [];
  return {
    record(response: HttpAnswer, sentAt: number, receivedAt: number) {
      const date = response.headers.get('date');
      const registryTime = date ? Date.parse(date) : NaN;
      if (!Number.isFinite(registryTime)) return;
      // The Date header has whole seconds: take the middle of the exchange and keep a few samples.
      offsets.push(registryTime + 500 - (sentAt + receivedAt) / 2);
      if (offsets.length > 7) offsets.shift();
    },
    /** The median offset in ms; null before any answer with a Date header. */
    median(): number | null {
      if (offsets.length === 0) return null;
      const sorted = [...offsets].sort((a, b) => a - b);
      return Math.round(sorted[Math.floor(sorted.length / 2)]!);
    },
  };
}
