// How registry operations read their input: a zod schema parsed into a 400 that lists every
// problem, the field shapes the operator operations share, and tonnes turned into exact grams.
import { z } from 'zod';
import { AmountError, tonnesToGrams } from '@shared/registry/amounts';
import { badRequest } from './errors';
import { zodMessages } from '../platform/zod-messages';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(zodMessages(result.error.issues));
  return result.data;
}

export { countryCode, dateInput, requiredText, text, tonnesInput } from '@shared/registry/operator-inputs';

/** Tonnes as whole grams; an amount finer than a gram is a 400 naming the field. */
export function grams(tonnes: number, field = 'amount'): number {
  try {
    return tonnesToGrams(tonnes);
  } catch (error) {
    if (error instanceof AmountError) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}
