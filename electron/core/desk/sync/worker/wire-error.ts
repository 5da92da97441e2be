// Errors across the thread boundary. A RegistryClientError is rebuilt with its kind and status on
// the other side, so the engine still tells "unreachable" (offline) from a refusal.
import { RegistryClientError } from '@desk/client/errors';
import type { WireError } from './protocol';

export function toWireError(error: unknown): WireError {
  if (error instanceof RegistryClientError) {
    return {
      message: error.message,
      kind: error.kind,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.endpoint !== undefined ? { endpoint: error.endpoint } : {}),
      messages: error.messages,
      ...(error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
      ...(error.reason !== undefined ? { reason: error.reason } : {}),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

export function fromWireError(wire: WireError): Error {
  if (wire.kind === undefined) return new Error(wire.message);
  return new RegistryClientError(wire.kind, wire.message, {
    ...(wire.status !== undefined ? { status: wire.status } : {}),
    ...(wire.endpoint !== undefined ? { endpoint: wire.endpoint } : {}),
    ...(wire.messages !== undefined ? { messages: wire.messages } : {}),
    ...(wire.retryAfterS !== undefined ? { retryAfterS: wire.retryAfterS } : {}),
    ...(wire.reason !== undefined ? { error: wire.reason } : {}),
  });
}
