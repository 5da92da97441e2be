// The numbers of the project form typed as the desk's locale writes them (lib/localeAmount.ts):
// latitude and longitude ("48,1" in de-DE, "48.1" in en-US) and the estimated annual mitigations,
// one year a line ("1.200,5" in de-DE). They were read with Number(), so a de-DE user's "48,1" came
// back as "Latitude: Invalid input: expected number, received NaN".
import { formatLocaleDecimal, localeSeparators, parseLocaleDecimal } from '@renderer/lib/localeAmount';

export type ReadNumber = { ok: true; whole: string; fraction: string; negative: boolean } | { ok: false; message: string };

/** A decimal typed in the locale, with an optional leading minus sign. */
export function readSignedDecimal(text: string, locale?: string): ReadNumber {
  const trimmed = text.trim();
  const negative = /^[-−]/.test(trimmed);
  const read = parseLocaleDecimal(negative ? trimmed.slice(1) : trimmed, locale);
  return read.ok ? { ...read, negative } : read;
}

/** A coordinate typed in the locale, as the number the registry takes, or why it is none. */
export function readCoordinate(
  text: string,
  limit: 90 | 180,
  locale?: string,
): { ok: true; value: number } | { ok: false; message: string } {
  const { decimal } = localeSeparators(locale);
  const wrong = {
    ok: false as const,
    message: `write a number from -${limit} to ${limit}, for example ${limit === 90 ? `48${decimal}1` : `-11${decimal}5`}.`,
  };
  const read = readSignedDecimal(text, locale);
  if (!read.ok) return wrong;
  const value = Number(`${read.negative ? '-' : ''}${read.whole}.${read.fraction || '0'}`);
  return Math.abs(value) <= limit ? { ok: true, value } : wrong;
}

/** A year's estimate typed in the locale, as the registry's text ("1200.5"), or why it is none. */
export function readMitigation(text: string, locale?: string): { ok: true; value: string } | { ok: false; message: string } {
  const read = parseLocaleDecimal(text, locale);
  if (!read.ok) return read;
  const fraction = read.fraction.replace(/0+$/, '');
  return { ok: true, value: `${BigInt(read.whole).toString()}${fraction ? `.${fraction}` : ''}` };
}

/** A number the registry sent ("1200.5", -11.5) as the locale writes it, for the form to show. */
export function localeNumberText(value: number | string, locale?: string): string {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  return `${match[1]}${formatLocaleDecimal(BigInt(match[2]!), match[3] ?? '', locale)}`;
}
