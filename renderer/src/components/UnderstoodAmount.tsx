// The amount as the desk understood what was typed (in the user's locale), shown before anything
// acts on it; a live region, so it is heard as it changes.
export function UnderstoodAmount({ shown, className }: { shown: string | null; className?: string }) {
  return (
    <p className={className ? `understood-amount ${className}` : 'understood-amount'} aria-live="polite" data-testid="understood-amount">
      {shown !== null ? (
        <>
          Understood as <strong>{shown}</strong>.
        </>
      ) : (
        <span className="muted">The amount is shown here once it is understood.</span>
      )}
    </p>
  );
}
