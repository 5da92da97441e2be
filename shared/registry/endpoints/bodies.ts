// The request bodies of the seed interface's writes (reservations, finishes, finalize).
import { z } from 'zod';
import { AmountError, tonnesToGrams } from '../amounts';
import { priceInfoSchema } from '../price';
import { EXAMPLE_UUID, EXAMPLE_CREDIT_ID, idString } from './define';

// ---- bodies --------------------------------------------------------------------------------------

/** The largest amount one request may move: a billion tonnes, far below where grams lose precision. */
export const MAX_AMOUNT_TONNES = 1_000_000_000;

const wholeGrams = (tonnes: number) => {
  try {
    tonnesToGrams(tonnes);
    return true;
  } catch (error) {
    if (error instanceof AmountError) return false;
    throw error;
  }
};

/** Tonnes as a JSON number: positive, at most MAX_AMOUNT_TONNES, in whole grams (0.000001 t). */
export const tonnes = z
  .number({ error: 'must be a number' })
  .finite()
  .positive('must be greater than 0')
  .max(MAX_AMOUNT_TONNES, `must be at most ${MAX_AMOUNT_TONNES}`)
  // Checked exactly on the decimal digits (zod's multipleOf misjudges numbers like 1.5e-7);
  // the document states it as multipleOf.
  .refine(wholeGrams, 'must be a whole number of grams (a multiple of 0.000001 t)')
  .meta({ examples: [12.5], multipleOf: 0.000001 });

export const reserveBody = z
  .object({
    creditId: idString('creditId', EXAMPLE_CREDIT_ID),
    amount: tonnes,
  })
  .meta({ examples: [{ creditId: EXAMPLE_CREDIT_ID, amount: 12.5 }] });

/** Text that must say something: not empty, not only whitespace. */
const someText = (max: number) => z.string().min(1, 'must not be empty').regex(/\S/, 'must not be blank').max(max);

export const walletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 40-hex-digit wallet address')
  .meta({ examples: ['0x90Ccf5545F5f0EEb3Ca35b5a35040Eb756Ecc4f6'] });

export const retirementData = z.object({
  reason: someText(500).trim(),
  beneficiaryName: someText(300).trim(),
  comment: z.string().max(2000).optional(),
});

const finishFields = {
  receiverId: idString('receiverId'),
  receiverAddress: walletAddress.optional(),
  transferComment: z.string().max(2000).optional(),
  priceInfo: priceInfoSchema.optional(),
};
const finishExample = { receiverId: EXAMPLE_UUID, transferComment: 'Sold to a client', priceInfo: { price: 12.3, currency: 'EUR' } };
const retirementExample = { reason: 'Voluntary offset', beneficiaryName: 'Ada Lovelace', comment: 'Offsetting 2024 travel' };

/** The finish body of either action; `transfer_retire` requires `retirementData` (finishRetireBody). */
export const finishBody = z
  .object({ ...finishFields, retirementData: retirementData.optional() })
  .meta({ examples: [{ ...finishExample, retirementData: retirementExample }] });

/** The finish body of `transfer_retire`: the retirement's data is required. */
export const finishRetireBody = z
  .object({ ...finishFields, retirementData })
  .meta({ examples: [{ ...finishExample, retirementData: retirementExample }] });

/** A signature as hex: 64 or 65 bytes, `0x` optional. */
export const SIGNATURE_PATTERN = /^(?:0x)?(?:[0-9a-fA-F]{2}){64,65}$/;

const finalizeExample = {
  signer: '0x90Ccf5545F5f0EEb3Ca35b5a35040Eb756Ecc4f6',
  // a real signature of the example's signedData by the example signer
  signature:
    '0x8e4d4f84dba6f356448982961f151c7ab7035a0406808e905f4db6f9b7935c9138f78a71525a01636ab87073bca5c27be64a0c88cffd2a1059cabb4b14ecba371b',
  signedData: {
    beneficiary: 'Ada Lovelace',
    comment: 'Offsetting 2024 travel',
    reason: 'Voluntary offset',
    projectAddress: '0x5b1d2b3c4e5f60718293a4b5c6d7e8f901234567',
    tokenId: '1',
  },
};

export const finalizeBody = z
  .object({
    signer: walletAddress,
    // 65 bytes (r, s, v) or the 64-byte compact form, as hex with or without `0x` (some client
    // libraries print signatures bare); one normal form (`0x`, lower case) from here on.
    signature: z
      .string()
      .regex(SIGNATURE_PATTERN, 'must be a 64- or 65-byte signature in hex, with or without 0x')
      .transform((s) => `0x${s.replace(/^0x/, '').toLowerCase()}`),
    // Never trimmed or otherwise transformed: the signature covers these exact strings.
    signedData: z.object({
      beneficiary: someText(300),
      comment: z.string().max(2000),
      reason: someText(500),
      projectAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed contract address'),
      tokenId: z.string().regex(/^[0-9]+$/, 'must be a decimal token id'),
    }),
  })
  .meta({ examples: [finalizeExample] });

/** The app endpoints take no body; a `{}` (or anything) sent is ignored. */
export const emptyBody = z.unknown().optional();
