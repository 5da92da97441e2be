// Exact tonne amounts typed by the user. The registry counts whole grams (6 decimals of a tonne),
// so the renderer compares amounts as integer grams parsed from the text, never as floats.
import { tonnesToGrams } from '../../../shared/registry/amounts';
import { GRAMS_PER_TONNE } from '../../../shared/registry/vocabulary';

const GRAM_DECIMALS = String(GRAMS_PER_TONNE).length - 1;

export type ParsedAmount = { ok: true; grams: bigint; tonnes: number } | { ok: false; message: string };

/** Parses "12.5" / "0.000001" into grams; refuses what the registry would refuse, in words. */
export function parseTonnes(text: string): ParsedAmount {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return { ok: false, message: 'Enter an amount in tonnes.' };
  const match = /^(\d+)(?:\.(\d+))?$/.exec(trimmed);
  if (!match) return { ok: false, message: 'Enter the amount as a number, for example 12.5.' };
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > GRAM_DECIMALS && /[1-9]/.test(fraction.slice(GRAM_DECIMALS))) {
    return { ok: false, message: `Amounts can have at most ${GRAM_DECIMALS} decimals (1 gram is 0.000001 t).` };
  }
  const grams = BigInt(whole) * BigInt(GRAMS_PER_TONNE) + BigInt(fraction.slice(0, GRAM_DECIMALS).padEnd(GRAM_DECIMALS, '0'));
  if (grams === 0n) return { ok: false, message: 'The amount must be greater than 0.' };
  // The wire carries a JSON number; the shortest decimal of this double is the text typed (≤ 15 digits).
  const tonnes = Number(`${whole}.${fraction || '0'}`);
  return { ok: true, grams, tonnes };
}

/** Grams of an amount the registry sent (a JSON number with at most 6 decimals). */
export function gramsOf(tonnes: number): bigint {
  return BigInt(tonnesToGrams(tonnes));
}

export function formatGrams(grams: bigint): string {
  const scale = BigInt(GRAMS_PER_TONNE);
  const whole = grams / scale;
  const fraction = (grams % scale).toString().padStart(GRAM_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}
