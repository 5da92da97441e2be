// What the operator may not do is shown, disabled, with the reason beside it — never offered and
// then refused. <RoleGate can="operatorX"> passes the allowance to its children (a render function);
// <GatedButton can="operatorX"> is the common case: a button that is aria-disabled with its reason
// (kept focusable, so a keyboard or screen-reader user reaches it and hears why).
import { useId, type ButtonHTMLAttributes, type ReactNode } from 'react';
import type { BackOfficeAllowance, OperatorEndpointName } from '@shared/desk/back-office';
import { useCan } from '@renderer/stores/backOffice';

export function RoleGate({ can, children }: { can: OperatorEndpointName; children: (allowance: BackOfficeAllowance) => ReactNode }) {
  return <>{children(useCan(can))}</>;
}

type GatedButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> & {
  can: OperatorEndpointName;
  /** Disabled for a reason of the screen's own (busy, nothing selected), besides the role. */
  disabledReason?: string | null;
  /** Where the reason goes: beside the button (default) or only in its description and tooltip. */
  showReason?: boolean;
};

export function GatedButton({ can, disabledReason, showReason = true, onClick, className, children, ...rest }: GatedButtonProps) {
  const allowance = useCan(can);
  const reasonId = useId();
  const reason = !allowance.allowed ? allowance.reason : (disabledReason ?? null);
  const disabled = reason !== null;
  return (
    <span className="gated-action">
      <button
        type="button"
        {...rest}
        className={className ?? 'button'}
        aria-disabled={disabled || undefined}
        aria-describedby={disabled ? reasonId : rest['aria-describedby']}
        title={reason ?? rest.title}
        data-gated={can}
        onClick={(event) => {
          if (disabled) {
            event.preventDefault();
            return;
          }
          onClick?.(event);
        }}
      >
        {children}
      </button>
      {disabled && (
        <span id={reasonId} className={showReason ? 'gated-reason' : 'visually-hidden'}>
          {reason}
        </span>
      )}
    </span>
  );
}
