// When a request made through fetch has left for the registry: undici (fetch's engine) publishes on
// the diagnostics channel `undici:client:sendHeaders` as it writes a request's headers to its
// connection. fetch's own promise says nothing until the answer's headers are back, and a caller
// about to hold its thread for a while (the feed's pipeline, writing a page of tens of MB) wants
// its next request on the wire first: a request still waiting for the event loop then waits for
// the whole write, and the registry sits idle meanwhile (bench/README.md).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

const CHANNEL = 'undici:client:sendHeaders';
/** Who waits for which request to leave, by its URL as undici sends it. */
const waiting = new Map<string, Set<() => void>>();

function onSendHeaders(message: unknown): void {
  const request = (message as { request?: { origin?: unknown; path?: unknown } } | null)?.request;
  const origin = request?.origin instanceof URL ? request.origin.href : request?.origin;
  if (typeof request?.path !== 'string' || typeof origin !== 'string') return;
  let href: string;
  try {
    href = new URL(request.path, origin).href;
  } catch {
    return;
  }
  const told = waiting.get(href);
  if (!told) return;
  waiting.delete(href);
  if (waiting.size === 0) unsubscribe(CHANNEL, onSendHeaders);
  for (const sent of told) sent();
}

/**
 * Calls `sent` once a request to `url` has been written to its connection (the first such request
 * from now on); the returned function stops waiting (call it when the exchange has settled).
 */
export function whenSent(url: string, sent: () => void): () => void {
  const href = new URL(url).href;
  if (waiting.size === 0) subscribe(CHANNEL, onSendHeaders);
  const told = waiting.get(href) ?? new Set<() => void>();
  told.add(sent);
  waiting.set(href, told);
  return () => {
    if (!told.delete(sent) || told.size > 0) return;
    if (waiting.get(href) === told) waiting.delete(href);
    if (waiting.size === 0) unsubscribe(CHANNEL, onSendHeaders);
  };
}
