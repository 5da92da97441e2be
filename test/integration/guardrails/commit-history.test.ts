// scripts/check-commits.ts against a real git history: it reads exactly the commits after the
// given one, merges aside, and says why it cannot when that commit is not in the history.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitsToCheck, messageProblems } from '@scripts/check-commits';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function repo() {
  const dir = mkdtempSync(join(tmpdir(), 'commit-check-'));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.org',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.org',
      },
    }).trim();
  git('init', '-q', '-b', 'main');
  let n = 0;
  const commit = (message: string) => {
    const file = `file-${n++}.txt`; // a file of its own: branches merge without conflicts
    writeFileSync(join(dir, file), file);
    git('add', file);
    git('commit', '-q', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  return { dir, git, commit };
}

describe('commitsToCheck', () => {
  it('reads the commits after the given one, without merges', () => {
    const { dir, git, commit } = repo();
    commit('an old message that nobody checks any more because it is far too long for a subject');
    const base = commit('Format the tree\n\nThe base.');
    const good = commit('Add a thing\n\nBecause it was missing.');
    git('checkout', '-q', '-b', 'side');
    const bad = commit(`${'Long '.repeat(20)}`);
    git('checkout', '-q', 'main');
    commit('Another thing\n\nWhy.');
    git('merge', '-q', '--no-ff', '-m', 'Merge branch side', 'side');

    const found = commitsToCheck(dir, base);
    if (!('commits' in found)) throw new Error(found.skipped);
    expect(found.commits.map((c) => c.hash)).toContain(good);
    expect(found.commits).toHaveLength(3);
    expect(found.commits.map((c) => c.message.split('\n')[0])).not.toContain('Merge branch side');
    const problems = found.commits.filter((c) => messageProblems(c.message).length > 0).map((c) => c.hash);
    expect(problems).toEqual([bad]);
  });

  it('fails when the base is not in the history, and skips outside a git checkout', () => {
    const { dir, commit } = repo();
    commit('Only commit\n\nWhy.');
    expect(() => commitsToCheck(dir, '1b1ee29f894443f19b8e43982fd546d8ef4d03df')).toThrow(/not in this history/);
    const plain = mkdtempSync(join(tmpdir(), 'commit-check-plain-'));
    dirs.push(plain);
    expect(commitsToCheck(plain, 'abc')).toEqual({ skipped: 'not a git checkout' });
  });
});
