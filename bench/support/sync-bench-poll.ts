// The sync bench child's polling job: many desks asking an unchanged registry's feed for news.
import { jobTokens, type ChildJob, type ChildResult } from './sync-bench-job';

/** `desks` desks polling the feed from the current end, each every `intervalMs`, for `durationMs`. */
export async function childPoll(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const { desks, intervalMs, durationMs, cursor } = job.poll!;
  const tokens = jobTokens(job);
  const token = await tokens.get({ kind: 'app' });
  const started = performance.now();
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: desks }, async (_, i) => {
      // Desks start spread over one interval, as independent desks would.
      let next = started + (i * intervalMs) / desks;
      while (next < started + durationMs) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        requests++;
        const res = await fetch(`${job.url}/sync/v1/changes?cursor=${encodeURIComponent(cursor)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const page = (await res.json()) as { changes?: unknown[] };
        if (!res.ok || page.changes?.length !== 0) failures++;
        next += intervalMs;
      }
    }),
  );
  return {
    wallMs: performance.now() - started,
    requests,
    rows: 0,
    ok: failures === 0,
    ...(failures ? { error: `${failures} polls failed` } : {}),
  };
}
