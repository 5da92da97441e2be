// Exact tonne amounts typed by the user (in their locale, see localeAmount.ts). The registry counts whole grams (6 decimals of a tonne),
// so the renderer compares amounts as integer grams parsed from the text, never as floats.
import { tonnesToGrams } from '@shared/registry/amounts';
import { GRAMS_PER_TONNE } from '@shared/registry/vocabulary';
import { formatLocaleDecimal, parseLocaleDecimal } from './localeAmount';

const GRAM_DECIMALS = String(GRAMS_PER_TONNE).length - 1;
/** The registry counts whole grams in exact (safe) integers: no amount can hold more. */
const MAX_EXACT_GRAMS = BigInt(Number.MAX_SAFE_INTEGER);

export type ParsedAmount = { ok: true; grams: bigint; tonnes: number; shown: string } | { ok: false; message: string };

/**
 * Parses an amount typed in the user's locale ("12.5" in en, "12,5" in de) into grams; refuses
 * what is ambiguous or what the registry would refuse, in words. `shown` is the amount understood,
 * written back in the locale ("1.5 t"), for the user to see before anything acts on it.
 */
export function parseTonnes(text: string, locale?: string): ParsedAmount {
  if (text.trim() === '') return { ok: false, message: 'Enter an amount in tonnes.' };
  if (/^\s*[-−]/.test(text)) return { ok: false, message: 'The amount must be greater than 0.' };
  const read = parseLocaleDecimal(text, locale);
  if (!read.ok) return read;
  const { whole, fraction } = read;
  if (fraction.length > GRAM_DECIMALS && /[1-9]/.test(fraction.slice(GRAM_DECIMALS))) {
    return { ok: false, message: `Amounts can have at most ${GRAM_DECIMALS} decimals (1 gram is 0.000001 t).` };
  }
  const kept = fraction.slice(0, GRAM_DECIMALS).padEnd(GRAM_DECIMALS, '0');
  const grams = BigInt(whole) * BigInt(GRAMS_PER_TONNE) + BigInt(kept);
  if (grams === 0n) return { ok: false, message: 'The amount must be greater than 0.' };
  if (grams > MAX_EXACT_GRAMS)
    return {
      ok: false,
      message: `The registry keeps amounts exactly up to ${formatGrams(MAX_EXACT_GRAMS, locale)} t; this one is larger.`,
    };
  // The wire carries a JSON number; the shortest decimal of this double is the text typed (≤ 15 digits).
  const tonnes = Number(`${whole}.${fraction || '0'}`);
  return { ok: true, grams, tonnes, shown: `${formatLocaleDecimal(BigInt(whole), kept, locale)} t` };
}

/** Grams of an amount the registry sent (a JSON number with at most 6 decimals). */
export function gramsOf(tonnes: number): bigint {
  return BigInt(tonnesToGrams(tonnes));
}

/** Grams as tonnes in the user's locale, every significant decimal: "1,234.5" (en), "1.234,5" (de). */
export function formatGrams(grams: bigint, locale?: string): string {
  const scale = BigInt(GRAMS_PER_TONNE);
  return formatLocaleDecimal(grams / scale, (grams % scale).toString().padStart(GRAM_DECIMALS, '0'), locale);
}
