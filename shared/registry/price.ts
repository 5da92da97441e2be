// A sale's price as the registry keeps it: the JSON number's shortest decimal form, stored as text.
// A JSON number keeps any decimal of at most 15 significant digits exactly; a longer one is rounded
// on the way (99999999999999999999 arrives as 1e20), so the registry refuses a price it could not
// keep as typed, and the desk refuses it before the review, with the same reason.
import { z } from 'zod';

export const PRICE_DIGITS = 15;
export const PRICE_LIMIT_TEXT = 'must have at most 15 digits (below 1,000,000,000,000,000), so the registry keeps it exactly';

const significant = (digits: string) => digits.replace(/^0+/, '').replace(/0+$/, '').length;

/** Whether a price typed as whole and fraction digits is kept exactly by the registry. */
export function typedPriceKeptExactly(whole: string, fraction: string): boolean {
  return whole.replace(/^0+/, '').length <= PRICE_DIGITS && significant(whole + fraction) <= PRICE_DIGITS;
}

/** Whether a price as it arrived (a JSON number) is one a decimal of at most 15 digits stands for. */
export function priceKeptExactly(price: number): boolean {
  if (!Number.isFinite(price) || price < 0 || price >= 10 ** PRICE_DIGITS) return false;
  const [mantissa = ''] = price.toExponential().split('e');
  return significant(mantissa.replace('.', '')) <= PRICE_DIGITS;
}

/** ISO 4217 currency codes this runtime knows (Intl's list of current currencies). */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code);
}

export const CURRENCY_MESSAGE = 'must be an ISO 4217 currency code, for example USD or EUR';

export const priceInfoSchema = z.object({
  price: z.number().finite().nonnegative().refine(priceKeptExactly, PRICE_LIMIT_TEXT),
  currency: z.string().trim().refine(isCurrencyCode, CURRENCY_MESSAGE),
});
