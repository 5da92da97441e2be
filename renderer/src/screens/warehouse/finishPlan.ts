// The finish form's values, their validation, the request body, and the sentence that tells the
// user exactly what will happen, built from the same values so they cannot disagree.
import type { DeskInput } from '../../../../shared/desk/api';
import { formatTonnesValue } from '../../lib/format';

export type FinishAction = 'transfer' | 'transfer_retire';

export interface FinishForm {
  action: FinishAction;
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
  action: 'transfer_retire',
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

export function validateFinish(form: FinishForm): FinishProblems {
  const problems: FinishProblems = {};
  if (!form.receiverId) problems.receiverId = 'Choose the organization that receives the credits.';
  if (form.receiverAddress.trim() && !/^0x[0-9a-fA-F]{40}$/.test(form.receiverAddress.trim()))
    problems.receiverAddress = 'A wallet address is 0x followed by 40 hexadecimal characters.';
  if (form.price.trim()) {
    if (!/^\d+(\.\d+)?$/.test(form.price.trim())) problems.price = 'Enter the price as a number, for example 12.50.';
    if (!form.currency.trim()) problems.currency = 'Enter the currency of the price, for example USD.';
  }
  if (form.action === 'transfer_retire') {
    if (!form.reason.trim()) problems.reason = 'Enter the reason for retiring the credits.';
    if (!form.beneficiaryName.trim()) problems.beneficiaryName = 'Enter who the retirement is for (the certificate names them).';
  }
  return problems;
}

export function finishBody(form: FinishForm): DeskInput<'warehouse.finish'>['body'] {
  const body: DeskInput<'warehouse.finish'>['body'] = { receiverId: form.receiverId };
  if (form.receiverAddress.trim()) body.receiverAddress = form.receiverAddress.trim();
  if (form.transferComment.trim()) body.transferComment = form.transferComment.trim();
  if (form.price.trim()) body.priceInfo = { price: Number(form.price.trim()), currency: form.currency.trim().toUpperCase() };
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
  if (form.price.trim()) lines.push(`Price recorded: ${form.price.trim()} ${form.currency.trim().toUpperCase()}.`);
  if (form.transferComment.trim()) lines.push(`Transfer comment: “${form.transferComment.trim()}”.`);
  if (form.action === 'transfer_retire') {
    lines.push(
      `They are then retired for ${form.beneficiaryName.trim()}, reason “${form.reason.trim()}”${form.retirementComment.trim() ? `, comment “${form.retirementComment.trim()}”` : ''}. Retired credits can never be used again.`,
    );
  }
  lines.push('This cannot be undone.');
  return lines;
}
