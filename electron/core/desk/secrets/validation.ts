// zod schemas for every argument the stores take. Error messages name the argument and the rule,
// never the value: the value may be a secret.
import { z } from 'zod';
import { InvalidSecretInputError } from './errors';

// Control characters in service/account names would end up in keychain UIs and file keys.
const NAME = /^[^\u0000-\u001f\u007f]*$/; // emptiness is min(1)'s job, with its own message

export const serviceNameSchema = z.string().min(1).max(200).regex(NAME, 'must not contain control characters');
export const accountNameSchema = z.string().min(1).max(200).regex(NAME, 'must not contain control characters');
/** A PEM RSA-4096 key is about 3.3 KB; 64 KiB leaves room for any real secret without letting a mistake fill a disk. */
export const MAX_SECRET_LENGTH = 64 * 1024;
export const secretSchema = z.string().min(1).max(MAX_SECRET_LENGTH);
/** Short passphrases are cheap to guess even through scrypt. */
export const MIN_PASSPHRASE_LENGTH = 8;
export const passphraseSchema = z.string().min(MIN_PASSPHRASE_LENGTH).max(1024);

/** Parses `value` or throws InvalidSecretInputError naming `label` and the broken rule (not the value). */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, label: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const rules = result.error.issues.map((issue) => describeIssue(issue)).join('; ');
  throw new InvalidSecretInputError(`Invalid ${label}: ${rules}.`);
}

// zod's default messages are value-free for these checks, but we compose our own so that stays
// true whatever zod does in a later version.
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return issue.minimum === 1 ? 'must not be empty' : `must be at least ${String(issue.minimum)} characters`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)} characters`;
    case 'invalid_format':
      return 'must not contain control characters';
    default:
      return 'is not valid';
  }
}
