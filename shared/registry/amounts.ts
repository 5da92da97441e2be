// Exact credit amounts. The wire carries tonnes as JSON numbers; the registry stores and adds whole
// grams (integers), so no number of reserve / transfer / retire steps can drift. The conversion reads
// the number's shortest decimal form (what JSON carried), never multiplies floats.
import { GRAMS_PER_TONNE } from './vocabulary';

const GRAM_DECIMALS = Math.round(Math.log10(GRAMS_PER_TONNE));

export class AmountError extends Error {}

/** Tonnes (as sent on the wire) to whole grams; throws AmountError for amounts finer than a gram. */
export function tonnesToGrams(tonnes: number): number {
  if (typeof tonnes !== 'number' || !Number.isFinite(tonnes)) throw new AmountError('amount must be a finite number');
  const negative = tonnes < 0;
  const [mantissa, exponentPart] = Math.abs(tonnes).toExponential().split('e') as [string, string];
  const exponent = Number(exponentPart);
  const [intDigits, fracDigits = ''] = mantissa.split('.') as [string, string?];
  const digits = intDigits + fracDigits;
  // value = 0.digits... × 10^(exponent + 1); grams = that × 10^GRAM_DECIMALS
  const pointPosition = exponent + 1 + GRAM_DECIMALS; // digits left of the decimal point, in grams
  if (digits.length > pointPosition && /[1-9]/.test(digits.slice(Math.max(pointPosition, 0)))) {
    throw new AmountError(`amount ${tonnes} is finer than the registry's unit of 1 gram (0.000001 t)`);
  }
  const whole = pointPosition <= 0 ? '0' : digits.slice(0, pointPosition).padEnd(pointPosition, '0');
  const grams = Number(whole);
  if (!Number.isSafeInteger(grams)) throw new AmountError(`amount ${tonnes} is too large`);
  return negative ? -grams : grams;
}

/** Whole grams to tonnes for the wire: the nearest double to the exact decimal, which prints exactly. */
export function gramsToTonnes(grams: number): number {
  return grams / GRAMS_PER_TONNE;
}

/** Formats grams as a decimal tonne string without float artefacts, e.g. 1500000 -> "1.5". */
export function formatTonnes(grams: number): string {
  const negative = grams < 0;
  const abs = Math.abs(grams)
    .toString()
    .padStart(GRAM_DECIMALS + 1, '0');
  const whole = abs.slice(0, abs.length - GRAM_DECIMALS);
  const frac = abs.slice(abs.length - GRAM_DECIMALS).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** How a locale writes numbers: the thousands separator and the decimal mark. */
export interface NumberSeparators {
  group: string;
  decimal: string;
}

export const PLAIN_SEPARATORS: NumberSeparators = { group: ',', decimal: '.' };

/**
 * THE way tonnes are shown to people (the desk, the certificate): exact to the gram, every
 * significant decimal and no more (so "1.25" reads the same on every screen and on paper), the
 * whole part grouped in threes. Machine-readable places (CSV, the wire) use formatTonnes instead.
 */
export function formatTonnesForPeople(grams: number, separators: NumberSeparators = PLAIN_SEPARATORS): string {
  const plain = formatTonnes(grams);
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, separators.group);
  return `${negative ? '-' : ''}${grouped}${fraction ? `${separators.decimal}${fraction}` : ''}`;
}
