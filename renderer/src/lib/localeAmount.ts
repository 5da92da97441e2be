// Amounts typed by the user, read in the user's locale (Intl) and exactly (integer micro-units).
// "1,5" is one and a half where the comma is the decimal separator (de, fr…); where it is the
// grouping separator (en) it is refused as ambiguous, never read as 15. Whatever is accepted is
// shown back in the same locale ("1.5 t") so the user sees what the button will act on.

export interface LocaleSeparators {
  decimal: string;
  group: string;
}

/** The decimal and grouping separators of `locale` (the browser's when undefined). */
export function localeSeparators(locale?: string): LocaleSeparators {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

export type ParsedDecimal = { ok: true; whole: string; fraction: string } | { ok: false; message: string };

const SPACES = /[\s\u00a0\u202f]/g;
const isSpace = (s: string) => /^[\s\u00a0\u202f]$/.test(s);

/**
 * Reads a non-negative decimal typed in `locale`: digits, at most one decimal separator of the
 * locale, and optionally the locale's grouping in well-formed groups of three before it. A
 * separator the locale does not use, or a grouping that is not in threes, is refused in words.
 * `example` is a sample amount for the messages ("12.5").
 */
export function parseLocaleDecimal(text: string, locale?: string): ParsedDecimal {
  const { decimal, group } = localeSeparators(locale);
  const example = `12${decimal}5`;
  let value = text.trim();
  if (value === '') return { ok: false, message: `Enter an amount, for example ${example}.` };
  // A space-like grouping separator (fr, sv…): any space between digits is that separator.
  if (isSpace(group)) value = value.replace(SPACES, ' ');
  const groupChar = isSpace(group) ? ' ' : group;
  const other = decimal === ',' ? '.' : ',';
  const pieces = value.split(decimal);
  if (pieces.length > 2) return { ok: false, message: `Use one “${decimal}” at most, before the decimals, for example ${example}.` };
  const [integerPart = '', fraction = ''] = pieces;
  if (pieces.length === 2 && !/^\d+$/.test(fraction))
    return { ok: false, message: `Write the decimals after “${decimal}” as digits only, for example ${example}.` };
  if (/^\d+$/.test(integerPart)) return { ok: true, whole: integerPart, fraction };
  const groups = integerPart.split(groupChar);
  const wellGrouped =
    groups.length > 1 && /^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g)) && (groups[0] ?? '') !== '0';
  if (wellGrouped) return { ok: true, whole: groups.join(''), fraction };
  if (integerPart.includes(other) && other !== groupChar) {
    return {
      ok: false,
      message: `“${text.trim()}” is ambiguous: this desk writes decimals with “${decimal}”, for example ${example}.`,
    };
  }
  if (integerPart.includes(groupChar)) {
    const cut = integerPart.lastIndexOf(groupChar);
    const meant = `${integerPart.slice(0, cut).split(groupChar).join('')}${decimal}${integerPart.slice(cut + 1)}`;
    const name = groupChar === ' ' ? 'a space' : `“${groupChar}”`;
    return {
      ok: false,
      message: `“${text.trim()}” is ambiguous: in this desk ${name} separates thousands, so write ${meant} if that is what you mean.`,
    };
  }
  return { ok: false, message: `Enter the amount as a number, for example ${example}.` };
}

/** Shows an exact decimal (whole digits, fraction digits) in `locale`: grouping and decimal separator. */
export function formatLocaleDecimal(whole: bigint, fraction: string, locale?: string): string {
  const { decimal } = localeSeparators(locale);
  const wholeText = new Intl.NumberFormat(locale, { useGrouping: true }).format(whole);
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed ? `${wholeText}${decimal}${trimmed}` : wholeText;
}
