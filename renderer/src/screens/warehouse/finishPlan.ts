// The finish form's values, their validation, the request body, and the sentence that tells the
// user exactly what will happen, built from the same values so they cannot disagree.
import type { DeskInput } from '@shared/desk/api';
import { isCurrencyCode, typedPriceKeptExactly } from '@shared/registry/price';
import { formatTonnesValue } from '@renderer/lib/format';
import { formatLocaleDecimal, localeSeparators, parseLocaleDecimal } from '@renderer/lib/localeAmount';

export type FinishAction = 'transfer' | 'transfer_retire';

/** No action is chosen until the user picks one: retiring cannot be undone, so it is never a default. */
export type FinishChoice = FinishAction | '';

export interface FinishForm {
  action: FinishChoice;
  receiverId: string;
  receiverAddress: string;
  transferComment: string;
  price: string;
  currency: string;
  reason: string;
  beneficiaryName: string;
  retirementComment: string;
}

export const EMPTY_FINISH_FORM: FinishForm = {
  action: '',
  receiverId: '',
  receiverAddress: '',
  transferComment: '',
  price: '',
  currency: 'USD',
  reason: '',
  beneficiaryName: '',
  retirementComment: '',
};

export type FinishProblems = Partial<Record<keyof FinishForm, string>>;

/** What is wrong with a currency typed (an ISO 4217 code, any letter case), or null when it is one. */
export function currencyProblem(text: string): string | null {
  const currency = text.trim().toUpperCase();
  if (!currency) return 'Enter the currency of the price, for example USD.';
  return isCurrencyCode(currency) ? null : 'Enter a currency code (ISO 4217), for example USD, EUR or KES.';
}

/** The hint under the price: its currency once that is a real code, never a bad one repeated back ("ZZZ$$"). */
export function priceHint(currency: string): string {
  const code = currency.trim().toUpperCase();
  return currencyProblem(code) === null ? `Per tonne of CO₂e, in ${code}.` : 'Per tonne of CO₂e, in the currency of the price (below).';
}

export function validateFinish(form: FinishForm): FinishProblems {
  const problems: FinishProblems = {};
  if (!form.action) problems.action = 'Choose Transfer, or Transfer and retire.';
  if (!form.receiverId) problems.receiverId = 'Choose the organization that receives the credits.';
  if (form.receiverAddress.trim() && !/^0x[0-9a-fA-F]{40}$/.test(form.receiverAddress.trim()))
    problems.receiverAddress = 'A wallet address is 0x followed by 40 hexadecimal characters.';
  if (form.price.trim()) {
    const price = parseLocaleDecimal(form.price);
    if (!price.ok) problems.price = price.message;
    else if (!typedPriceKeptExactly(price.whole, price.fraction))
      problems.price = 'The price can have at most 15 digits, so the registry keeps it exactly as typed.';
    const currency = currencyProblem(form.currency);
    if (currency) problems.currency = currency;
  }
  if (form.action === 'transfer_retire') {
    if (!form.reason.trim()) problems.reason = 'Enter the reason for retiring the credits.';
    if (!form.beneficiaryName.trim()) problems.beneficiaryName = 'Enter who the retirement is for (the certificate names them).';
  }
  return problems;
}

/** The price per tonne typed in the user's locale: its number and its text as understood (decimals kept). */
export function priceOf(form: FinishForm): { value: number; shown: string } | null {
  if (!form.price.trim()) return null;
  const read = parseLocaleDecimal(form.price);
  if (!read.ok) return null;
  const whole = formatLocaleDecimal(BigInt(read.whole), '');
  return {
    value: Number(`${read.whole}.${read.fraction || '0'}`),
    shown: read.fraction ? `${whole}${localeSeparators().decimal}${read.fraction}` : whole,
  };
}

export function finishBody(form: FinishForm): DeskInput<'warehouse.finish'>['body'] {
  const body: DeskInput<'warehouse.finish'>['body'] = { receiverId: form.receiverId };
  if (form.receiverAddress.trim()) body.receiverAddress = form.receiverAddress.trim();
  if (form.transferComment.trim()) body.transferComment = form.transferComment.trim();
  const price = priceOf(form);
  if (price) body.priceInfo = { price: price.value, currency: form.currency.trim().toUpperCase() };
  if (form.action === 'transfer_retire') {
    body.retirementData = { reason: form.reason.trim(), beneficiaryName: form.beneficiaryName.trim() };
    if (form.retirementComment.trim()) body.retirementData.comment = form.retirementComment.trim();
  }
  return body;
}

/** The confirmation's statements, one per line, in the order things happen. */
/** Ends a sentence with one full stop even when the name already ends with one ("Ltd."). */
const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

export function describeFinish(
  form: FinishForm,
  context: { amount: number; serialization: string; projectName: string; fromName: string; receiverName: string },
): string[] {
  const lines = [
    sentence(
      `${formatTonnesValue(context.amount)} of ${context.serialization} (${context.projectName}) leave the warehouse of ${context.fromName}`,
    ),
    sentence(
      `They are transferred to ${context.receiverName}${form.receiverAddress.trim() ? `, wallet ${form.receiverAddress.trim()}` : ''}`,
    ),
  ];
  const price = priceOf(form);
  if (price) lines.push(`Price recorded: ${price.shown} ${form.currency.trim().toUpperCase()} per tonne.`);
  if (form.transferComment.trim()) lines.push(`Transfer comment: “${form.transferComment.trim()}”.`);
  if (form.action === 'transfer_retire') {
    lines.push(
      `They are then retired for ${form.beneficiaryName.trim()}, reason “${form.reason.trim()}”${form.retirementComment.trim() ? `, comment “${form.retirementComment.trim()}”` : ''}. Retired credits can never be used again.`,
    );
  }
  lines.push('This cannot be undone.');
  return lines;
}
