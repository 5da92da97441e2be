// The sync bench's child process (sync.bench.ts runs it, bundled for Node): one job per run, the
// desk's first sync or a floor or 100 polling desks, its figures written as JSON on stdout.
import { childSync } from './sync-bench-desk-sync';
import { childFeedFloor, childFloor } from './sync-bench-floors';
import { type ChildJob, peakRssMb } from './sync-bench-job';
import { childPoll } from './sync-bench-poll';

if (process.argv[2] === '--sync-bench-child') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const job = JSON.parse(input) as ChildJob;
  const run = { sync: childSync, floor: childFloor, feedFloor: childFeedFloor, poll: childPoll }[job.mode];
  const result = await run(job).catch((e: unknown) => ({
    wallMs: 0,
    requests: 0,
    rows: 0,
    ok: false,
    error: String(e),
  }));
  process.stdout.write(`${JSON.stringify({ ...result, maxRssMb: peakRssMb() })}\n`);
  process.exit(0);
}
