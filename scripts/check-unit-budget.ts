// Runs the unit tier (`vitest run --project unit`, extra arguments passed on) and fails when it takes
// longer than its budget: 60 s, on CI's 2 cores. `npm test` runs it before the other tiers.
//
// The unit tier is what every contributor runs all day, so its time is held like any house rule.
// Wall time alone would make this check flaky on a shared machine (others' work stretches it), so a
// run over budget is judged by the tier's own CPU time, spread over the cores it may use: its wall
// time on an idle machine of that size. Over budget both ways, it fails and says where to look.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

const BUDGET_SECONDS = Number(process.env.UNIT_BUDGET_SECONDS ?? 60);
/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/** CPU seconds of every child process this one has waited for (and their children), from /proc. */
function childrenCpuSeconds(): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces): field 3 (state) first; cutime and cstime
  // are fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / TICKS_PER_SECOND;
}

const seconds = (value: number) => `${value.toFixed(1)} s`;

const root = resolve(import.meta.dirname, '..');
const vitest = resolve(root, 'node_modules/vitest/vitest.mjs');
const cpuBefore = childrenCpuSeconds();
const started = performance.now();
const child = spawn(process.execPath, [vitest, 'run', '--project', 'unit', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
const code = await new Promise<number>((done) => child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0))));
const wall = (performance.now() - started) / 1000;

const cpuAfter = childrenCpuSeconds();
const cores = availableParallelism();
const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
const idle = cpu === null ? null : cpu / cores;
const measured = `${seconds(wall)} wall${cpu === null ? '' : `, ${seconds(cpu)} of CPU over ${cores} cores (${seconds(idle!)} on an idle machine)`}`;

if (code !== 0) {
  console.error(`unit tier failed (${measured}).`);
  process.exit(code);
} else if (wall <= BUDGET_SECONDS || (idle !== null && idle <= BUDGET_SECONDS)) {
  console.log(`unit tier: ${measured}; budget ${seconds(BUDGET_SECONDS)}.`);
} else {
  console.error(
    `The unit tier took ${measured}, over its budget of ${seconds(BUDGET_SECONDS)}. ` +
      'Find the heaviest imports (vitest run --project unit with test.experimental.importDurations), import heavy modules ' +
      'lazily in tests, split slow fixtures, or move a test that needs minutes to test/scale (CONTRIBUTING.md).',
  );
  process.exit(1);
}
