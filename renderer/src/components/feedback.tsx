// The three states every list and page has besides "here is the data": loading, empty, failed.
import type { ReactNode } from 'react';

export function ErrorMessage({ error, onRetry }: { error: string | null | undefined; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div className="error-message" role="alert">
      <span>{error}</span>
      {onRetry && (
        <button type="button" className="button-link" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <strong>{title}</strong>
      {children && <p>{children}</p>}
    </div>
  );
}
