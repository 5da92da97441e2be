// Field schemas every part of the desk API shares (api.ts and the schema modules beside it).
import { z } from 'zod';

export const id = z.string().trim().min(1).max(200);
export const isoTime = z.string();

/** Every read says how fresh it is and whether it came from the cache because the registry is unreachable. */
export const freshness = { asOf: isoTime.nullable(), offline: z.boolean() };
