// How PostgreSQL's text values are read, as SQLite gives them: integers and numerics as numbers
// (refused beyond exact ones), booleans as 0/1, the rest as text. A module of its own because both
// postgres-native.ts (new connections) and postgres-rows.ts (each statement's converters) use them,
// and rows.ts importing native.ts closed an import circle through postgres-timed.ts.

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
