// pg-native, loaded on first use, with SQLite's value conversions (postgres-values.ts).
import { createRequire } from 'node:module';
import { CONNECT_TIMEOUT_S, type NativeClient } from './postgres-connection';
import { endWhenSocketDropped } from './postgres-dropped-socket';
import { answeredInTime, runWithDeadline } from './postgres-timed';
import { TYPES } from './postgres-values';

export type NativeClientConstructor = new (config: { types: { getTypeParser(oid: number): (value: string) => unknown } }) => NativeClient;

let nativeClient: NativeClientConstructor | undefined;
export function loadNativeClient(): NativeClientConstructor {
  if (!nativeClient) {
    try {
      nativeClient = createRequire(import.meta.url)('pg-native') as NativeClientConstructor;
    } catch (error) {
      throw new Error(
        'PostgreSQL needs the optional pg-native module, which is not installed (it builds against libpq: install libpq-dev, then run npm run setup)',
        { cause: error },
      );
    }
  }
  return nativeClient;
}

/**
 * How connections are opened: libpq's connect, then `settings` in a round trip, which is also the
 * proof that the database answers (a frozen one fails the connect within its timeout).
 */
export function nativeOpeners(settings: string): {
  open: (target: string) => NativeClient;
  openInBackground: (target: string) => Promise<NativeClient>;
} {
  const Client = loadNativeClient();
  const open = (target: string): NativeClient => {
    const client = new Client({ types: TYPES });
    client.connectSync(target);
    endWhenSocketDropped(client);
    try {
      runWithDeadline(client, () => client.pq.sendQuery(settings), CONNECT_TIMEOUT_S * 1000);
    } catch (error) {
      client.end();
      throw error;
    }
    return client;
  };
  /** The same without blocking: libpq's connect runs on libuv's thread pool, the settings are polled. */
  const openInBackground = async (target: string): Promise<NativeClient> => {
    const client = new Client({ types: TYPES });
    await new Promise<void>((resolve, reject) => client.connect(target, (error?: Error) => (error ? reject(error) : resolve())));
    endWhenSocketDropped(client);
    try {
      await answeredInTime(client, settings, CONNECT_TIMEOUT_S * 1000);
    } catch (error) {
      client.end();
      throw error;
    }
    return client;
  };
  return { open, openInBackground };
}
