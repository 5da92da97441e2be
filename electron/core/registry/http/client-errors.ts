// Requests Node's HTTP parser refuses before any route runs (oversized headers, a malformed request
// line, Transfer-Encoding together with Content-Length, ...): Node would answer them with an empty
// body; this answers them in the JSON error shape of compatibility.md, then closes the connection.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './pipeline-parts';

const MESSAGES: Record<number, string> = {
  400: 'The request is not valid HTTP/1.1 (malformed request line or headers, or Transfer-Encoding with Content-Length)',
  408: 'The request took too long to arrive',
  431: 'The request headers are too large',
};

/** The status Node would answer for a parser error code. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** The raw HTTP/1.1 response for a refused request: the error shape, `Connection: close`. */
export function rawErrorResponse(
  status: number,
  message = MESSAGES[status] ?? MESSAGES[400]!,
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify(errorBody(status, message));
  return [
    `HTTP/1.1 ${status} ${errorBody(status, '').error}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    body,
  ].join('\r\n');
}

export function answerClientErrorsInShape(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const started = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(clientErrorStatus(error.code)));
  });
}
