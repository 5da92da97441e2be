// A review the registry answered with a refusal, in the words of the form. It read "The registry
// would refuse this: The registry refused because of the current state: …" with request paths
// (body.amount) in it and a "Try again" that could only get the same answer: a refusal is about what
// was typed, so it says so once, keeps the registry's own message under "Details", and offers
// "Try again" only when the registry could not be asked (offline, or it failed).
import { plainRefusal, refusalOfField } from '@renderer/components/backOffice/plainRefusal';
import { ErrorMessage } from '@renderer/components/feedback';
import { DeskFailure, describeError } from '@renderer/lib/desk';

/** The desk's lead-ins before the registry's own message (electron/core/desk/errors.ts). */
const DESK_LEAD = /^The registry (refused the request|refused because of the current state|does not allow this|does not know this): /;
const REFUSALS = new Set(['invalid_input', 'conflict', 'forbidden', 'not_found']);

/** A refusal about one field of the form (the registry's message starts with it), in words, or null. */
export function fieldRefusalOf(error: unknown): { field: string; text: string } | null {
  if (!(error instanceof DeskFailure) || !REFUSALS.has(error.code)) return null;
  return refusalOfField(describeError(error).replace(DESK_LEAD, ''));
}

export function PreviewRefusal({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const message = describeError(error);
  if (!(error instanceof DeskFailure) || !REFUSALS.has(error.code))
    return <ErrorMessage error={`The registry could not review this: ${message}`} onRetry={onRetry} />;
  const plain = plainRefusal(message.replace(DESK_LEAD, ''));
  return (
    <div className="error-message" role="alert">
      <span>{`The registry would refuse this: ${plain}${/[.!?]$/.test(plain) ? '' : '.'} Go back to the form to change it.`}</span>
      <details className="error-details">
        <summary>Details</summary>
        <span className="mono">{message}</span>
      </details>
    </div>
  );
}
