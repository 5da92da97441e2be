// The desk's one polite announcer (issue 19 item 5): a single live region that screen readers read
// out, for what happens without focus moving there: a reservation made or cancelled, one minute
// left, an expiry, a form's problems, sync progress. Throttled: it changes at most once a second;
// what comes meanwhile waits its turn, and a message with a key (sync progress) replaces the one
// of that key still waiting, so a burst of progress events is read once, not fifteen times.
import { create } from 'zustand';

export const ANNOUNCE_INTERVAL_MS = 1000;

interface Spoken {
  text: string;
  /** Bumped on each message, so the same words said again are a new node, read again. */
  count: number;
}

const useAnnouncer = create<Spoken>()(() => ({ text: '', count: 0 }));

const waiting: Array<{ text: string; key: string | undefined }> = [];
let lastSpokenAt = Number.NEGATIVE_INFINITY;
let timer: ReturnType<typeof setTimeout> | null = null;

function speakNext() {
  timer = null;
  const next = waiting.shift();
  if (!next) return;
  lastSpokenAt = performance.now();
  useAnnouncer.setState((s) => ({ text: next.text, count: s.count + 1 }));
  schedule();
}

function schedule() {
  if (timer !== null || waiting.length === 0) return;
  timer = setTimeout(speakNext, Math.max(0, lastSpokenAt + ANNOUNCE_INTERVAL_MS - performance.now()));
}

/** Says `text` politely; a `key` makes it replace an earlier message of that key not yet said. */
export function say(text: string, key?: string): void {
  const pending = key === undefined ? undefined : waiting.find((m) => m.key === key);
  if (pending) pending.text = text;
  else waiting.push({ text, key });
  schedule();
}

export function Announcer() {
  const { text, count } = useAnnouncer();
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-announcer>
      {text && <span key={count}>{text}</span>}
    </div>
  );
}
