// The commit-message rule `npm run lint` applies (scripts/check-commits.ts): a subject of at most 72
// characters, a blank line, and a body that says why.
import { describe, expect, it } from 'vitest';
import { messageProblems } from '@scripts/check-commits';

describe('messageProblems', () => {
  it('accepts a short subject, a blank line and a body', () => {
    expect(messageProblems('Typecheck each runtime on its own\n\nA DOM global in the core typechecked.\n')).toEqual([]);
    expect(messageProblems(`${'x'.repeat(72)}\n\nWhy.`)).toEqual([]);
  });

  it('refuses a subject over 72 characters', () => {
    expect(messageProblems(`${'x'.repeat(73)}\n\nWhy.`)).toEqual(['the subject has 73 characters (at most 72)']);
  });

  it('refuses a message without a body, or with only trailers', () => {
    expect(messageProblems('Fix the thing\n')).toEqual(['there is no body saying why']);
    expect(messageProblems('Fix the thing\n\n\n')).toEqual(['there is no body saying why']);
    expect(messageProblems('Fix the thing\n\nCo-authored-by: A <a@example.org>\nSigned-off-by: B <b@example.org>\n')).toEqual([
      'there is no body saying why',
    ]);
  });

  it('refuses a body glued to the subject, an empty subject and unsquashed fixups', () => {
    expect(messageProblems('Fix the thing\nbecause it broke\n\nMore.')).toEqual(['the subject is not followed by a blank line']);
    expect(messageProblems('\n\nOnly a body.')).toEqual(['the subject line is empty']);
    expect(messageProblems('fixup! Fix the thing\n\nWhy.')).toEqual(['a fixup/squash commit was left unsquashed']);
  });
});
