// Turns what a user types into a safe FTS5 expression. Raw input is never handed to MATCH: FTS5
// syntax (quotes, *, ^, NEAR, AND/OR/NOT, column filters) in user text would either fail or mean
// something else. Each whitespace-separated word becomes a quoted phrase of its letter/digit runs,
// the last token of each phrase a prefix: `ICR-KEN 20` → `"ICR KEN"* "20"*` (every word must match).

const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 64;

export function toFtsPrefixQuery(input: string): string | null {
  const phrases: string[] = [];
  for (const word of input.normalize('NFKC').split(/\s+/u)) {
    const runs = word.slice(0, MAX_WORD_LENGTH).match(/[\p{L}\p{N}]+/gu);
    if (!runs) continue;
    // Only letters and digits are left, so the phrase cannot contain a quote or an operator.
    phrases.push(`"${runs.join(' ')}"*`);
    if (phrases.length === MAX_WORDS) break;
  }
  return phrases.length > 0 ? phrases.join(' ') : null;
}

/** What a search box's text asks for: nothing, names starting with one character, or an FTS match. */
export type SearchText = { kind: 'none' } | { kind: 'initial'; range: { from: string; to: string } } | { kind: 'match'; match: string };

/**
 * A single letter or digit is not prefix-matched: `k*` matches a large share of every indexed word,
 * so as-you-type search would count and sort most of the cache on the first keystroke. It selects
 * names that start with it instead (an index range: NOCASE, so ASCII letters in either case).
 */
export function searchText(input: string): SearchText {
  const runs = input.normalize('NFKC').match(/[\p{L}\p{N}]+/gu);
  const letters = runs?.join('') ?? '';
  if ([...letters].length === 1) {
    const from = letters.toLowerCase();
    return { kind: 'initial', range: { from, to: String.fromCodePoint(from.codePointAt(0)! + 1) } };
  }
  const match = toFtsPrefixQuery(input);
  return match === null ? { kind: 'none' } : { kind: 'match', match };
}
