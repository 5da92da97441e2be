// Values a JSON Schema (as /openapi.json publishes it) accepts, as fast-check arbitraries: for tests
// that send what a client reading only the document may send. Covers the keywords the registry's
// document uses; one it does not know fails the test rather than guess. Two documented rules JSON
// Schema cannot state are kept: numbers carry at most 15 significant digits (fractional ones are
// drawn on a grid of 0.000001), and a string's length counts code points.
import fc from 'fast-check';

export type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  examples?: unknown[];
};

/** Values to draw often for a field of this name (real ids, valid keys), beside the schema's own. */
export type Hints = (name: string) => unknown[] | undefined;

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'enum',
  'const',
  'examples',
  'default',
  'description',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'propertyNames',
]);

const codePoints = (s: string) => [...s].length;

/**
 * Any code point but U+0000 and the surrogates, the unusual ones often (fast-check's own 'binary'
 * unit takes seconds to set up). Text holding U+0000 or an unpaired surrogate is a refusal every
 * request meets (the document's 400), so no text the document allows holds one; that refusal is
 * tested on its own (audit-rules.test.ts).
 */
const anyCodePoint = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.constantFrom(0x09, 0x0a, 0x0d, 0x85, 0xa0, 0x200b, 0x2028, 0x3000, 0xfeff, 0x301, 0x1f600, 0x10ffff),
  // 0x80–0xffff without 0xd800–0xdfff
  fc.integer({ min: 0x80, max: 0xffff - 0x800 }).map((c) => (c >= 0xd800 ? c + 0x800 : c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
);

function stringArbitrary(schema: Schema): fc.Arbitrary<string> | undefined {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, Math.max(min, 40));
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const allowed = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (s: string) => codePoints(s) >= min && codePoints(s) <= allowed && (pattern === undefined || pattern.test(s));
  switch (schema.format) {
    case 'date':
      return fc
        .date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'uuid':
      return fc.uuid({ version: 4 });
    default:
      break;
  }
  // free text: printable ASCII, and any code point (control characters, spaces of every kind,
  // astral ones); a pattern's own values from the regex
  const free = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max }),
    fc.array(anyCodePoint, { minLength: min, maxLength: max }).map((points) => String.fromCodePoint(...points)),
  );
  if (pattern === undefined || schema.pattern === '\\S') return free.filter(fits);
  // Unicode property classes (\p{L}) make fast-check build every matching character: drawn from the hints instead
  if (String(schema.pattern).includes('\\p{')) return undefined;
  try {
    return fc.stringMatching(pattern).filter(fits);
  } catch {
    return undefined; // a pattern fast-check cannot draw from: the hints and examples only
  }
}

/** Numbers on a grid of 0.000001 (or whole), inside the schema's bounds, at most 15 significant digits. */
function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const scale = integer || schema.multipleOf === 1 ? 1 : 1_000_000;
  const lowest =
    typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -1e9;
  const highest =
    typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 1e9;
  const min = Math.max(Math.ceil(lowest * scale) + (schema.exclusiveMinimum === lowest ? 1 : 0), -1e15);
  const max = Math.min(Math.floor(highest * scale) - (schema.exclusiveMaximum === highest ? 1 : 0), 1e15);
  // small values half of the time (they are the ones a ledger can hold), the whole range too
  const small = fc.integer({ min: Math.max(min, -10 * scale), max: Math.min(max, 10 * scale) });
  return fc.oneof(small, fc.integer({ min, max })).map((n) => n / scale);
}

export function schemaArbitrary(schema: Schema, hints: Hints, name = '', example?: unknown): fc.Arbitrary<unknown> {
  const unknown = Object.keys(schema).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) throw new Error(`${name}: keywords this generator does not know: ${unknown.join(', ')}`);
  const hinted = hints(name) ?? [];
  const examples = [...(schema.examples ?? []), ...(example !== undefined ? [example] : [])];
  const own = ownArbitrary(schema, hints, name, example ?? schema.examples?.[0]);
  const choices = [
    ...(own ? [{ weight: 3, arbitrary: own }] : []),
    // hints most of the time where given: they are what reaches the operation itself
    ...(hinted.length > 0 ? [{ weight: own ? 9 : 1, arbitrary: fc.constantFrom(...hinted) }] : []),
    ...(examples.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...examples) }] : []),
  ];
  if (choices.length === 0) throw new Error(`${name}: no way to draw ${JSON.stringify(schema).slice(0, 200)}`);
  return choices.length === 1 ? choices[0]!.arbitrary : fc.oneof(...choices);
}

function ownArbitrary(schema: Schema, hints: Hints, name: string, example: unknown): fc.Arbitrary<unknown> | undefined {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const options = schema.anyOf ?? schema.oneOf;
  // an example of the whole may belong to another option: none is passed down
  if (options) return fc.oneof(...options.map((o) => schemaArbitrary({ ...without(schema, ['anyOf', 'oneOf']), ...o }, hints, name)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => schemaArbitrary({ ...schema, type }, hints, name, example)));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema, false);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = schemaArbitrary(schema.items ?? {}, hints, name.replace(/s$/, ''));
      const constraints = {
        minLength: typeof schema.minItems === 'number' ? schema.minItems : 0,
        maxLength: Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3),
      };
      return schema.uniqueItems
        ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(item, constraints);
    }
    case 'object':
      return objectArbitrary(schema, hints, example);
    default:
      throw new Error(`${name}: a schema without a type this generator knows: ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

function objectArbitrary(schema: Schema, hints: Hints, example: unknown): fc.Arbitrary<Record<string, unknown>> {
  const given = typeof example === 'object' && example !== null ? (example as Record<string, unknown>) : {};
  const fields = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, property]) => [key, schemaArbitrary(property, hints, key, given[key])]),
  );
  const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  return fc.record(fields, { requiredKeys: schema.required ?? [] }).filter((value) => Object.keys(value).length >= minProperties);
}

const without = (schema: Schema, keys: string[]): Schema => Object.fromEntries(Object.entries(schema).filter(([k]) => !keys.includes(k)));
