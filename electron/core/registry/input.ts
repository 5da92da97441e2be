// How registry operations read their input: a zod schema parsed into a 400 that lists every
// problem, the field shapes the operator operations share, and tonnes turned into exact grams.
import { z } from 'zod';
import { AmountError, tonnesToGrams } from '../../../shared/registry/amounts';
import { alpha3Of } from '../../../shared/registry/countries';
import { badRequest, zodMessages } from './errors';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(zodMessages(result.error.issues));
  return result.data;
}

export const text = (max = 500) => z.string().trim().max(max);
export const requiredText = (max = 500) => z.string().trim().min(1, 'must not be empty').max(max);
export const dateInput = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((s) => Date.parse(s));
export const tonnesInput = z.number({ error: 'must be a number of tonnes' }).positive('must be greater than 0');
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
  .refine((c) => alpha3Of(c) !== undefined, 'unknown country code');

/** Tonnes as whole grams; an amount finer than a gram is a 400 naming the field. */
export function grams(tonnes: number, field = 'amount'): number {
  try {
    return tonnesToGrams(tonnes);
  } catch (error) {
    if (error instanceof AmountError) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}
