// The frame of every back-office screen: its heading, the operator the desk acts as (name and
// role), and, when the back office cannot be used with this connection, why and how to fix it
// instead of the screen's content.
import type { ReactNode } from 'react';
import { useBackOffice } from '@renderer/stores/backOffice';
import { useNavigation } from '@renderer/stores/navigation';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { humanize } from '@renderer/lib/format';

export function BackOfficePage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const session = useBackOffice((s) => s.session);
  const error = useBackOffice((s) => s.error);
  const go = useNavigation((s) => s.go);
  return (
    <section className="screen back-office" aria-labelledby="back-office-heading">
      <header className="screen-header">
        <div>
          <h1 id="back-office-heading">{title}</h1>
          {session?.operator && (
            <p className="screen-subtitle">
              {/* The role after a separator, not in brackets: a name such as "Local administrator (this desk)" has its own. */}
              Acting as <strong>{session.operator.name}</strong> · {humanize(session.operator.role)}
              {/* Offline, with no time: the offline banner says how old this screen's data is; the
                  newest saved view's time here ("data as of 10:11" under "saved at 10:05") contradicted it. */}
              {!session.online && ' · offline'}
            </p>
          )}
        </div>
        {session?.available && actions}
      </header>
      <ErrorMessage error={error} onRetry={() => void useBackOffice.getState().loadSession()} />
      {!session && !error && <Loading label="Checking the operator account…" />}
      {session && !session.available && (
        <div className="empty-state" role="status">
          <strong>The back office is not available for this registry</strong>
          <p>{session.reason}</p>
          <button type="button" className="button" onClick={() => go('settings')}>
            Open Connections &amp; settings
          </button>
        </div>
      )}
      {session?.available && children}
    </section>
  );
}
