// pg-native, loaded on first use, with SQLite's value conversions (integers and numerics as numbers).
import { createRequire } from 'node:module';
import type { NativeClient } from './postgres-connection';

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
export const TYPES = { getTypeParser: (oid: number) => PARSERS[oid] ?? ((v: string) => v) };

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
