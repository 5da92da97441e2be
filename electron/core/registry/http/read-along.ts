// A handler made of one database read and the answer made from its rows, so that the route can send
// the read with the caller's token lookup (endpoint-route.ts, Authenticator.authenticateWith): one
// round trip per request on PostgreSQL instead of two. The read is built from the request's params
// and query alone, before the caller is known, and its rows reach the answer only once the caller is
// authenticated and allowed the endpoint; refused, they are dropped unseen. Called as any handler
// (by a route that cannot send the read along), it reads, then answers.
import type { EndpointId, EndpointParams, EndpointQuery } from '@shared/registry/endpoints';
import type { BoundRead } from '@platform/db/database';
import type { RegistryContext } from '../context';
import type { Handler, HandlerInput } from './types';

/** What the read may depend on: the request's checked params and query, not its caller. */
export interface ReadInput<K extends EndpointId> {
  params: EndpointParams<K>;
  query: EndpointQuery<K>;
  registry: RegistryContext;
}

export interface ReadAlong<K extends EndpointId, R> {
  read(input: ReadInput<K>): BoundRead<R>;
  answer(input: HandlerInput<K>, rows: R[]): ReturnType<Handler<K>>;
}

/** A handler whose read can go along with the caller's lookup. */
export type ReadAlongHandler<K extends EndpointId, R> = Handler<K> & { readAlong: ReadAlong<K, R> };

export function readAlong<K extends EndpointId, R>(parts: ReadAlong<K, R>): ReadAlongHandler<K, R> {
  const handler: Handler<K> = async (input) => {
    const [rows] = await input.registry.db.allAsyncTogether(parts.read(input));
    return parts.answer(input, rows);
  };
  return Object.assign(handler, { readAlong: parts });
}

/** The handler's read and answer, when it has them. */
export function readAlongOf<K extends EndpointId>(handler: Handler<K>): ReadAlong<K, unknown> | undefined {
  return 'readAlong' in handler ? (handler as ReadAlongHandler<K, unknown>).readAlong : undefined;
}
