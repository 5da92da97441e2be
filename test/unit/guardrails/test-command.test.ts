// `npm test` names the vitest projects it runs (the unit tier runs alone first, for its time budget;
// the others together after it): a project added to vitest.config.ts and left out of `npm test`
// would never run in CI. This fails when one is.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const TYPECHECK_AND_LINT = 'scripts/typecheck-and-lint.ts';
const scripts = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Every script `name` runs, itself included, following `npm run x`, run-p/run-s names and tsx files. */
function reachable(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name) || scripts[name] === undefined) return seen;
  seen.add(name);
  const command = scripts[name];
  for (const [, next] of command.matchAll(/npm run ([\w:-]+)/g)) reachable(next!, seen);
  for (const part of command.split(/&&|\|\|/)) {
    const words = part.trim().split(/\s+/);
    if (words[0] !== 'run-p' && words[0] !== 'run-s') continue;
    for (const word of words.slice(1).filter((w) => !w.startsWith('-'))) {
      const pattern = new RegExp(`^${word.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^:]*')}$`);
      for (const script of Object.keys(scripts).filter((s) => pattern.test(s))) reachable(script, seen);
    }
  }
  return seen;
}

describe('npm test', () => {
  const commands = [...reachable('test')].map((name) => scripts[name]!);
  const projectsRun = new Set(commands.flatMap((command) => [...command.matchAll(/--project '?([\w-]+)'?/g)].map((m) => m[1]!)));
  // scripts/check-unit-budget.ts runs `vitest run --project unit`
  if (commands.some((command) => command.includes('scripts/check-unit-budget.ts'))) projectsRun.add('unit');

  it('runs every vitest project vitest.config.ts defines', () => {
    const config = readFileSync(resolve(root, 'vitest.config.ts'), 'utf8');
    const defined = [...config.matchAll(/\bname: '([\w-]+)'/g)].map((m) => m[1]!);
    expect(defined).toEqual(expect.arrayContaining(['unit', 'integration', 'components', 'scale', 'postgres', 'pgbouncer']));
    expect(defined.filter((name) => !projectsRun.has(name))).toEqual([]);
  });

  it('runs the end-to-end tests and the lint, and CI runs npm test', () => {
    expect(commands.some((command) => /\bplaywright test\b/.test(command))).toBe(true);
    // ESLint and `tsc -b` run in one process, on one set of programs (scripts/typecheck-and-lint.ts)
    expect(commands.some((command) => command.includes(`tsx ${TYPECHECK_AND_LINT}`))).toBe(true);
    const combined = readFileSync(resolve(root, TYPECHECK_AND_LINT), 'utf8');
    expect(combined).toMatch(/ts\.createSolutionBuilder\(host, \['tsconfig\.json'\]/);
    expect(combined).toMatch(/new ESLint\(/);
    expect(readFileSync(resolve(root, '.ci/run'), 'utf8')).toMatch(/\bnpm test\b/);
  });

  it('is described in the README with every system package .ci/run installs', () => {
    const packages =
      /for pkg in ([^;]+);/
        .exec(readFileSync(resolve(root, '.ci/run'), 'utf8'))?.[1]
        ?.trim()
        .split(/\s+/) ?? [];
    expect(packages).toContain('postgresql');
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    expect(packages.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
