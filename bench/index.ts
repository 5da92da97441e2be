// `npm run bench`: runs every benchmark suite, prints each figure beside its floor and target, and
// writes bench/.results/latest.json and latest.md (the table pasted into bench/README.md).
// `npm run bench -- <suite> …` runs only the named suites.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BenchFigure, BenchSuite } from './types';

const SUITES: Record<string, () => Promise<{ suite: BenchSuite }>> = {
  projects: () => import('./projects.bench'),
  warehouse: () => import('./warehouse.bench'),
  certificates: () => import('./certificates.bench'),
  sync: () => import('./sync.bench'),
  network: () => import('./network.bench'),
  ui: () => import('./ui.bench'),
  operator: () => import('./operator.bench'),
  postgres: () => import('./postgres.bench'),
  transparency: () => import('./transparency.bench'),
  'slow-sockets': () => import('./slow-sockets.bench'),
};

function format(n: number | undefined): string {
  if (n === undefined) return '';
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 1) return n.toFixed(2);
  return n.toPrecision(3);
}

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length > 0 ? wanted : Object.keys(SUITES);
  const figures: BenchFigure[] = [];
  for (const name of names) {
    const load = SUITES[name];
    if (!load) throw new Error(`unknown bench suite ${name}; known: ${Object.keys(SUITES).join(', ')}`);
    let suite: BenchSuite;
    try {
      ({ suite } = await load());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
        console.log(`(suite ${name} not built yet)`);
        continue;
      }
      throw error;
    }
    console.log(`\n== ${suite.name}`);
    for (const f of await suite.run()) {
      figures.push(f);
      const verdict = f.pass === undefined ? '' : f.pass ? 'PASS' : 'MISS';
      console.log(
        `${f.name.padEnd(48)} ${format(f.value).padStart(10)} ${f.unit.padEnd(8)}` +
          (f.floor !== undefined ? ` floor ${format(f.floor)} ${f.unit}` : '') +
          (f.ratio !== undefined ? ` ratio ${format(f.ratio)}` : '') +
          (f.target ? ` target ${f.target} ${verdict}` : ''),
      );
    }
  }
  const dir = join(import.meta.dirname, '.results');
  mkdirSync(dir, { recursive: true });
  const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
  writeFileSync(join(dir, 'latest.json'), JSON.stringify({ date: new Date().toISOString(), machine, figures }, null, 2));
  const md = [
    `| suite | figure | value | floor | ratio | target | |`,
    `|---|---|---|---|---|---|---|`,
    ...figures.map(
      (f) =>
        `| ${f.suite} | ${f.name} | ${format(f.value)} ${f.unit} | ${f.floor !== undefined ? `${format(f.floor)} ${f.unit}` : ''} | ${format(f.ratio)} | ${f.target ?? ''} | ${f.pass === undefined ? '' : f.pass ? 'pass' : 'miss'} |`,
    ),
  ].join('\n');
  writeFileSync(join(dir, 'latest.md'), `${md}\n\nMeasured ${new Date().toISOString()} on ${machine}.\n`);
  console.log(`\nwritten to bench/.results/latest.{json,md}`);
}

await main();
