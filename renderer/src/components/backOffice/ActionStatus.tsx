// The line under a back-office action: "Done", "Refused: …", "Not sure: checking…" (then the
// settled answer), with "Check again" while the outcome is still unknown. A live region, so the
// outcome is heard as well as seen.
import type { OperatorWriteName } from '@shared/desk/back-office';
import type { BackOfficeAction } from './useBackOfficeAction';
import { plainRefusal } from './plainRefusal';

export function ActionStatus<E extends OperatorWriteName>({ action }: { action: BackOfficeAction<E> }) {
  const { state, statusText } = action;
  const explained = state.phase === 'refused' || state.phase === 'failed' ? state.message : null;
  const plain = explained === null ? null : plainRefusal(explained);
  const tone = state.phase === 'done' ? 'ok' : state.phase === 'refused' || state.phase === 'failed' ? 'error' : 'pending';
  return (
    <div
      className={`action-status action-status-${tone}`}
      role="status"
      aria-live="polite"
      data-phase={state.phase}
      // Where a dialog's "done" step puts focus (its confirming button is gone).
      tabIndex={-1}
      data-step-focus={state.phase === 'done' ? '' : undefined}
    >
      {plain !== null && plain !== explained ? (
        <>
          <span>{`${state.phase === 'refused' ? 'Refused' : 'Not done'}: ${plain}`}</span>
          <details className="error-details">
            <summary>Details</summary>
            <span className="mono">{explained}</span>
          </details>
        </>
      ) : (
        statusText && <span>{statusText}</span>
      )}
      {state.phase === 'unsure' && (
        <button type="button" className="button-link" onClick={() => void action.check()}>
          Check again
        </button>
      )}
    </div>
  );
}
