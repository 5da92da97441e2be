// `npm run lint` runs this: every commit after the Prettier formatting commit must have a subject
// of at most 72 characters, a blank line, then a body that says why. `git log --oneline` then reads
// as a table of contents, and the reasons stay with the change. Older history is left as it is.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** "Format the tree with Prettier; add .editorconfig": the first commit held to these rules is the one after it. */
export const FIRST_CHECKED_AFTER = '1b1ee29f894443f19b8e43982fd546d8ef4d03df';
export const MAX_SUBJECT = 72;

const TRAILER = /^[A-Za-z][A-Za-z0-9-]*: /; // Co-authored-by:, Signed-off-by:, … say who, not why

/** What is wrong with one commit message (empty when nothing is). */
export function messageProblems(message: string): string[] {
  const lines = message.replace(/\s+$/, '').split('\n');
  const subject = lines[0] ?? '';
  const problems: string[] = [];
  if (subject.trim() === '') problems.push('the subject line is empty');
  if (subject.length > MAX_SUBJECT) problems.push(`the subject has ${subject.length} characters (at most ${MAX_SUBJECT})`);
  if (/^(fixup|squash|amend)! /.test(subject)) problems.push('a fixup/squash commit was left unsquashed');
  if (lines.length > 1 && lines[1]!.trim() !== '') problems.push('the subject is not followed by a blank line');
  const body = lines.slice(2).filter((line) => line.trim() !== '' && !TRAILER.test(line));
  if (body.length === 0) problems.push('there is no body saying why');
  return problems;
}

export interface Commit {
  hash: string;
  message: string;
}

function git(root: string, args: string[]): { ok: boolean; out: string } {
  const run = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ok: run.status === 0, out: run.stdout ?? '' };
}

/** The commits to check, or why there are none to read. */
export function commitsToCheck(root: string, after = FIRST_CHECKED_AFTER): { commits: Commit[] } | { skipped: string } {
  if (!git(root, ['rev-parse', '--git-dir']).ok) return { skipped: 'not a git checkout' };
  if (!git(root, ['merge-base', '--is-ancestor', after, 'HEAD']).ok) {
    if (git(root, ['rev-parse', '--is-shallow-repository']).out.trim() === 'true') {
      return { skipped: `a shallow clone without ${after.slice(0, 7)} (fetch the full history to check)` };
    }
    throw new Error(`commit ${after} is not in this history: was main rewritten?`);
  }
  // %x1e separates records; merges carry git's own message.
  const log = git(root, ['log', '--no-merges', '--format=%H%n%B%x1e', `${after}..HEAD`]);
  if (!log.ok) throw new Error('git log failed');
  const commits = log.out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const newline = record.indexOf('\n');
      return { hash: record.slice(0, newline), message: record.slice(newline + 1) };
    });
  return { commits };
}

function main(): number {
  const found = commitsToCheck(resolve(import.meta.dirname, '..'));
  if ('skipped' in found) {
    console.log(`commit messages: not checked, ${found.skipped}`);
    return 0;
  }
  const bad = found.commits.map((c) => ({ ...c, problems: messageProblems(c.message) })).filter((c) => c.problems.length > 0);
  for (const c of bad) {
    console.error(`${c.hash.slice(0, 10)} ${c.message.split('\n')[0]}`);
    for (const problem of c.problems) console.error(`  - ${problem}`);
  }
  if (bad.length > 0) {
    console.error(`commit messages: ${bad.length} of ${found.commits.length} need rewording (git rebase -i, reword)`);
    return 1;
  }
  console.log(`commit messages: ${found.commits.length} checked, all with a short subject and a body`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) process.exitCode = main();
