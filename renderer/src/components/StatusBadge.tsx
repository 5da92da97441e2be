// A small coloured label for a status value (project status, reservation state, claimed, …).
import { humanize } from '../lib/format';

const TONES: Record<string, 'good' | 'warn' | 'bad' | 'info' | 'neutral'> = {
  validated: 'good',
  registered: 'good',
  processed: 'good',
  claimed: 'good',
  active: 'info',
  pending: 'info',
  pending_queue: 'info',
  submitted: 'info',
  processing: 'info',
  draft: 'neutral',
  cancelled: 'neutral',
  withdrawn: 'neutral',
  unclaimed: 'warn',
  expired: 'warn',
  rejected: 'bad',
  failed: 'bad',
  // the audit log's outcomes and an installation's suspension
  succeeded: 'good',
  refused: 'warn',
  suspended: 'warn',
};

export function StatusBadge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge badge-${TONES[value] ?? 'neutral'}`}>{label ?? humanize(value)}</span>;
}
