// How guessable a new passphrase is, with zxcvbn-ts (Dropbox's zxcvbn estimator: dictionaries of
// common passwords, words and names, keyboard patterns, dates, repeats, l33t substitutions). A key
// file is only as strong as its passphrase: scrypt slows each guess, it cannot save "password1".
// Only new passphrases are checked (an existing file must still open with the one it has).
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { InvalidSecretInputError } from './errors';

/** zxcvbn's score 3: "safely unguessable", about 10^10 guesses, against an offline slow hash. */
export const MIN_PASSPHRASE_SCORE = 3;

let factory: ZxcvbnFactory | undefined;

/** Loaded on first use: the dictionaries take about half a second to index. */
function estimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return factory;
}

/** Why `passphrase` is too easy to guess, in words a user can act on, or undefined when it is strong enough. */
export function passphraseWeakness(passphrase: string, userInputs: readonly string[] = []): string | undefined {
  // Beyond 256 characters zxcvbn only gets slower; such a passphrase is not weak by length.
  const result = estimator().check(passphrase.slice(0, 256), [...userInputs, 'registry', 'desk', 'registry desk']);
  if (result.score >= MIN_PASSPHRASE_SCORE) return undefined;
  const why = [result.feedback.warning, ...result.feedback.suggestions].filter((text): text is string => Boolean(text));
  return `This passphrase is too easy to guess${why.length > 0 ? ` (${why.join(' ')})` : ''}. Use a longer one, for example four or more unrelated words.`;
}

/** Throws InvalidSecretInputError (never naming the passphrase) when a new passphrase is too weak. */
export function checkNewPassphrase(passphrase: string, userInputs: readonly string[] = []): void {
  const weakness = passphraseWeakness(passphrase, userInputs);
  if (weakness) throw new InvalidSecretInputError(weakness);
}
