// A reservation's end as a time of day in the user's locale ("14:32"), the day added when it is not today.
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayTimeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export function formatTime(iso: string, now = Date.now()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Date(now).toDateString() === date.toDateString() ? timeFormat.format(date) : dayTimeFormat.format(date);
}
