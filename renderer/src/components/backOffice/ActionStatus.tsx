// The line under a back-office action: "Done", "Refused: …", "Not sure: checking…" (then the
// settled answer), with "Check again" while the outcome is still unknown. A live region, so the
// outcome is heard as well as seen.
import type { OperatorWriteName } from '../../../../shared/desk/back-office';
import type { BackOfficeAction } from './useBackOfficeAction';

export function ActionStatus<E extends OperatorWriteName>({ action }: { action: BackOfficeAction<E> }) {
  const { state, statusText } = action;
  const tone = state.phase === 'done' ? 'ok' : state.phase === 'refused' || state.phase === 'failed' ? 'error' : 'pending';
  return (
    <div className={`action-status action-status-${tone}`} role="status" aria-live="polite" data-phase={state.phase}>
      {statusText && <span>{statusText}</span>}
      {state.phase === 'unsure' && (
        <button type="button" className="button-link" onClick={() => void action.check()}>
          Check again
        </button>
      )}
    </div>
  );
}
