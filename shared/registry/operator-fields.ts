// The field shapes the registry operator's inputs are made of (operator-inputs.ts): bounded text,
// ids, dates, tonnes, country codes, keys; and the check that an edit changes something.
import { z } from 'zod';
import { alpha3Of, COUNTRIES } from './countries';

/**
 * At most `max` characters counted as JSON Schema's maxLength counts them (/openapi.json): by code
 * point, so an emoji is one character, where zod's .max() would count its two UTF-16 units and
 * refuse text the document allows.
 */
const atMostCharacters = (max: number) => (value: string) => {
  let count = 0;
  for (const _character of value) if (++count > max) return false;
  return true;
};
export const text = (max = 500) =>
  z.string().trim().refine(atMostCharacters(max), `must be at most ${max} characters`).meta({ maxLength: max });
/** Text that is not empty once trimmed (the pattern says so in /openapi.json: some non-space character). */
export const requiredText = (max = 500) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine(atMostCharacters(max), `must be at most ${max} characters`)
    .meta({ pattern: '\\S', maxLength: max });
/**
 * The id of a record: taken exactly as sent, never trimmed (` x` is not `x`, as in paths); an id
 * that names nothing is the operation's 404.
 */
export const idInput = () => z.string().min(1, 'must not be empty').max(500);
export const dateInput = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((s) => Date.parse(s));
/** The most one ledger movement may carry, in tonnes (the ledger's own cap, ledger.ts). */
export const MAX_MOVEMENT_TONNES = 1_000_000_000;
export const tonnesInput = z
  .number({ error: 'must be a number of tonnes' })
  .positive('must be greater than 0')
  .max(MAX_MOVEMENT_TONNES, `must be at most ${MAX_MOVEMENT_TONNES} t per movement`)
  .meta({
    multipleOf: 0.000001,
    description: `Tonnes in whole grams (0.000001 t), at most ${MAX_MOVEMENT_TONNES} per movement; one account holds at most 9000000000 t over all its credits`,
  });
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
  .refine((c) => alpha3Of(c) !== undefined, 'unknown country code')
  // the refine above, as JSON Schema can say it (/openapi.json): the codes countries.ts knows
  .meta({ enum: Object.keys(COUNTRIES).sort(), description: 'ISO 3166-1 alpha-2 code of a known country' });
/**
 * The smallest RSA key the registry takes, for apps and operators alike; the desk checks keys
 * against it before they are sent (renderer) or stored (the app key in the keychain).
 */
export const MIN_RSA_KEY_BITS = 2048;

/**
 * An RSA public key in PEM. The server parses it (and refuses one that is not RSA, or under
 * MIN_RSA_KEY_BITS); the document can say only its PEM shape.
 */
export const publicKeyPemInput = requiredText(10_000).meta({
  pattern: '^\\s*-----BEGIN [A-Z0-9 ]+-----[\\s\\S]+-----END [A-Z0-9 ]+-----\\s*$',
  description: `An RSA public key of at least ${MIN_RSA_KEY_BITS} bits, PEM ("-----BEGIN PUBLIC KEY-----" ...)`,
});

/** An edit must give at least one field besides the id of what it edits. */
export const somethingToChangeIn = (what: string, id: string) =>
  [
    (p: Record<string, unknown>) => Object.entries(p).some(([k, v]) => k !== id && v !== undefined),
    { message: `nothing to change: give at least one field of the ${what}` },
  ] as const;
