// Time left on a reservation, ticking every second, computed from reservedToDate and the registry
// clock offset (so a desk whose clock is off still counts down the registry's 10 minutes).
import { useNow } from '@renderer/lib/hooks';
import { formatCountdown } from '@renderer/lib/format';
import { registryNow } from './reservationPhase';

/**
 * `words: false` shows the time alone, for a sentence that says what it is ("ends in 09:13"). `from`
 * (when the hold began) caps the time left at the hold's length: the clock offset is an estimate, so a
 * new 10-minute hold read "10:01 left".
 */
export function Countdown({
  until,
  from,
  clockOffsetMs,
  words = true,
}: {
  until: string;
  from?: string;
  clockOffsetMs: number;
  words?: boolean;
}) {
  const now = useNow();
  const end = Date.parse(until);
  const held = from === undefined ? Infinity : end - Date.parse(from);
  const left = Math.min(end - registryNow(clockOffsetMs, now), held);
  if (left <= 0) return <span className="countdown countdown-expired">Expired</span>;
  return (
    <span
      className={left < 60_000 ? 'countdown countdown-soon' : 'countdown'}
      role="timer"
      aria-label={words ? `${formatCountdown(left)} left` : formatCountdown(left)}
    >
      {formatCountdown(left)}
      {words && ' left'}
    </span>
  );
}
