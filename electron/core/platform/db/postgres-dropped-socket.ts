// A connection whose socket libpq closed is let go in the same call. libpq closes the socket of a
// connection it finds cut (the end of the stream, a failed read) inside the call that finds it, but
// pg-native's handle keeps a libuv watcher on that descriptor NUMBER; closing the handle later tells
// the kernel to stop watching the number, and the watcher meanwhile claims the number's events. By
// then the next socket the process opened may have that number: a client's kept-alive HTTP
// connection, never read again until its keep-alive timer reset it (issue 28, through PgBouncer).
// Ended at once, nothing can have taken the number yet; what the caller reads next about the
// failure (the connection's message, the failed result) is kept.
import { releaseClient, type NativeClient } from './postgres-connection';

/** The libpq calls that read or write the socket, so may find the connection cut. */
const SOCKET_CALLS = [
  'consumeInput',
  'getResult',
  'flush',
  'sendQuery',
  'sendQueryParams',
  'sendPrepare',
  'sendQueryPrepared',
  'pipelineSync',
  'exitPipelineMode',
] as const;

/** Makes `client` end itself in the call in which libpq closes its socket. Call once it is connected. */
export function endWhenSocketDropped(client: NativeClient): void {
  const pq = client.pq;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const message = pq.errorMessage();
    const result = { fields: pq.resultErrorFields(), message: pq.resultErrorMessage(), status: pq.resultStatus() };
    releaseClient(client);
    // after PQfinish libpq would answer "connection pointer is NULL" and no result
    pq.errorMessage = () => message;
    pq.resultErrorFields = () => result.fields;
    pq.resultErrorMessage = () => result.message;
    pq.resultStatus = () => result.status;
  };
  for (const name of SOCKET_CALLS) {
    const calls = pq as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>;
    const call = calls[name];
    if (typeof call !== 'function') continue;
    calls[name] = (...args: unknown[]): unknown => {
      const answer: unknown = call.apply(pq, args);
      if (!ended && pq.socket() < 0) {
        // a result that came with the end of the stream is read (its rows too) before the next call
        if (name === 'getResult' && answer === true) queueMicrotask(end);
        else end();
      }
      return answer;
    };
  }
}
