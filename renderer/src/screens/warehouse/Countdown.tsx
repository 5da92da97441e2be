// Time left on a reservation, ticking every second, computed from reservedToDate and the registry
// clock offset (so a desk whose clock is off still counts down the registry's 10 minutes).
import { useNow } from '../../lib/hooks';
import { formatCountdown } from '../../lib/format';
import { registryNow } from './reservationPhase';

export function Countdown({ until, clockOffsetMs }: { until: string; clockOffsetMs: number }) {
  const now = useNow();
  const left = Date.parse(until) - registryNow(clockOffsetMs, now);
  if (left <= 0) return <span className="countdown countdown-expired">Expired</span>;
  return (
    <span className={left < 60_000 ? 'countdown countdown-soon' : 'countdown'} role="timer" aria-label={`${formatCountdown(left)} left`}>
      {formatCountdown(left)} left
    </span>
  );
}
