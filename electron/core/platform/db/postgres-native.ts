// pg-native, loaded on first use, with SQLite's value conversions (integers and numerics as numbers).
import { createRequire } from 'node:module';
import { CONNECT_TIMEOUT_S, type NativeClient } from './postgres-connection';
import { answeredInTime, runWithDeadline } from './postgres-timed';

export type NativeClientConstructor = new (config: { types: { getTypeParser(oid: number): (value: string) => unknown } }) => NativeClient;

function toNumber(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) && !/[.eE]/.test(value)) throw new RangeError(`PostgreSQL returned ${value}, beyond exact numbers`);
  return n;
}
const PARSERS: Record<number, (value: string) => unknown> = {
  16: (v) => (v === 't' ? 1 : 0), // bool → 0/1 as SQLite
  20: toNumber, // int8
  21: Number, // int2
  23: Number, // int4
  26: Number, // oid
  700: Number, // float4
  701: Number, // float8
  1700: toNumber, // numeric (SUM of bigint)
};
const asText = (value: string): string => value;
export const TYPES = { getTypeParser: (oid: number): ((value: string) => unknown) => PARSERS[oid] ?? asText };

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
