// Reading a large JSON answer member by member (electron/core/desk/sync/json-spans.ts, over its
// UTF-8 bytes): for any text, reading it as spans and parsing each piece gives exactly what one
// JSON.parse gives, and refuses exactly what JSON.parse refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as spans from '@desk/sync/json-spans';
import { JsonShapeError, type Span } from '@desk/sync/json-spans';

/**
 * The text read as the sync reads answers: the root object's members, an array member element by
 * element; with `expand`, that member's elements found in the same scan as the members (as the
 * feed reads its pages' changes and the inventories their credits).
 */
function readBySpans(source: string, expand?: string): unknown {
  const bytes = Buffer.from(source, 'utf8');
  const root = spans.rootSpan(bytes);
  const value = (span: Span) =>
    spans.isArraySpan(bytes, span) ? spans.arrayElements(bytes, span).map((e) => spans.parseSpan(bytes, e)) : spans.parseSpan(bytes, span);
  if (!spans.isObjectSpan(bytes, root)) return value(root);
  const { members, elements } = expand
    ? spans.objectMembersAndElements(bytes, root, expand)
    : { members: spans.objectMembers(bytes, root), elements: null };
  const out: Record<string, unknown> = {};
  for (const [key, span] of members) {
    const read = key === expand ? (elements?.map((e) => spans.parseSpan(bytes, e)) ?? spans.parseSpan(bytes, span)) : value(span);
    Object.defineProperty(out, key, { value: read, enumerable: true, configurable: true, writable: true });
  }
  return out;
}

const outcome = (read: () => unknown): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof JsonShapeError) return { ok: false };
    throw error;
  }
};

describe('json spans', () => {
  it('reads tricky strings: braces, brackets, quotes, backslashes and non-Latin text inside them', () => {
    const answer = {
      summary: { exPost: 1.5, exAnte: 0, retired: -2e-3 },
      organization: { fullName: 'Brace { and ] "quoted" \\ back\\slash', id: '}]"' },
      credits: [{ name: '[{"not": "structure"}]', n: null }, { name: 'Ḩarrat — 北京 — emoji 🌍', t: true }, [], {}, 'x', 3],
    };
    for (const text of [JSON.stringify(answer), JSON.stringify(answer, null, 2), `  \n${JSON.stringify(answer, null, '\t')}\r\n `]) {
      expect(readBySpans(text)).toEqual(answer);
      expect(readBySpans(text, 'credits')).toEqual(answer);
      const source = Buffer.from(text, 'utf8');
      const credits = spans.objectMembers(source, spans.rootSpan(source)).get('credits')!;
      expect(spans.arrayElements(source, credits)).toHaveLength(6);
    }
  });

  it('keeps the last of a repeated member, as JSON.parse does', () => {
    expect(readBySpans('{"a": 1, "a": [2, 3]}')).toEqual({ a: [2, 3] });
    for (const text of ['{"a": 1, "a": [2, 3]}', '{"a": [1], "a": [2, 3]}', '{"a": [1], "a": 2}'])
      expect(readBySpans(text, 'a')).toEqual(JSON.parse(text));
  });

  it('refuses what JSON.parse refuses at the levels it walks', () => {
    for (const bad of [
      '',
      '   ',
      '{',
      '{"a":1',
      '{"a" 1}',
      '{"a":1,}',
      '{,"a":1}',
      '{"a":1}}',
      '{"a":1} x',
      '{"a":[1 2]}',
      '{"a":[1,]}',
      '{"a":[,1]}',
      '{"a":"x}',
      '{a:1}',
      '{"a":01}',
      '{"a":[{"b":1}}]}',
      // A repeated name: the value the later member replaces is never read, yet it must be valid.
      '{"a":e-3,"a":[]}',
      '{"a":{"b":01},"a":1}',
    ]) {
      expect(outcome(() => readBySpans(bad)).ok, bad).toBe(false);
      expect(outcome(() => readBySpans(bad, 'a')).ok, bad).toBe(false);
      expect(outcome(() => JSON.parse(bad)).ok, bad).toBe(false);
    }
  });

  it('agrees with JSON.parse on any JSON value, however it is spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(readBySpans(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts exactly what JSON.parse accepts after any one-character edit of a valid text', () => {
    const edits = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('delete', 'insert', 'replace'),
      char: fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', ' ', '1', 'a', '-', '.', 'e'),
    });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
        fc.array(edits, { minLength: 1, maxLength: 3 }),
        (object, changes) => {
          let text = JSON.stringify(object);
          for (const c of changes) {
            const at = c.at % (text.length + 1);
            text =
              c.kind === 'delete'
                ? text.slice(0, at) + text.slice(at + 1)
                : c.kind === 'insert'
                  ? text.slice(0, at) + c.char + text.slice(at)
                  : text.slice(0, at) + c.char + text.slice(at + 1);
          }
          const whole = outcome(() => JSON.parse(text));
          for (const expand of [undefined, Object.keys(object)[0] ?? '']) {
            const bySpans = outcome(() => readBySpans(text, expand));
            expect(bySpans.ok, text).toBe(whole.ok);
            if (bySpans.ok && whole.ok) expect(bySpans.value, text).toEqual(whole.value);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads the bytes as Response.text() decodes them: a byte order mark skipped, invalid sequences as U+FFFD', () => {
    const source = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"a": "x'),
      Buffer.from([0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from('", "b": ["Ḩ🌍", 1]}'),
    ]);
    const decoded = new TextDecoder().decode(source);
    const members = spans.objectMembers(source, spans.rootSpan(source));
    const read = Object.fromEntries([...members].map(([key, span]) => [key, spans.parseSpan(source, span)]));
    expect(read).toEqual(JSON.parse(decoded));
  });
});

describe('the leading members of an answer still arriving', () => {
  const names = new Set(['cursor', 'more']);

  it('finds in every prefix only the members complete in it, with the values the whole text has', () => {
    fc.assert(
      fc.property(
        fc.record({ cursor: fc.string(), more: fc.oneof(fc.boolean(), fc.integer()) }),
        fc.jsonValue(),
        fc.constantFrom(undefined, 1, '\t'),
        (links, rest, space) => {
          const bytes = Buffer.from(JSON.stringify({ ...links, changes: rest, removed: [] }, null, space));
          let complete = 0;
          for (let cut = 0; cut <= bytes.length; cut++) {
            const prefix = bytes.subarray(0, cut);
            const found = spans.leadingMembers(prefix, names)!;
            for (const [key, span] of found) expect(spans.parseSpan(prefix, span)).toEqual(links[key as keyof typeof links]);
            // What a prefix found, every longer one finds too.
            expect(found.size).toBeGreaterThanOrEqual(complete);
            complete = found.size;
          }
          expect(complete).toBe(2);
        },
      ),
    );
  });

  it('stops at the first member not named, and is null for what does not begin an object', () => {
    const late = Buffer.from(JSON.stringify({ changes: [1, 2], cursor: 'c', more: true }));
    expect(spans.leadingMembers(late, names)!.size).toBe(0);
    const between = Buffer.from(JSON.stringify({ cursor: 'c', changes: [], more: true }));
    expect([...spans.leadingMembers(between, names)!.keys()]).toEqual(['cursor']);
    expect(spans.leadingMembers(Buffer.from('[{"cursor":"c"}]'), names)).toBeNull();
    // A literal cut off where it could go on is not taken (`tru`, or `1` of `12`).
    expect(spans.leadingMembers(Buffer.from('{"cursor":"c","more":tr'), names)!.has('more')).toBe(false);
    expect(spans.leadingMembers(Buffer.from('{"cursor":"c","more":1'), names)!.has('more')).toBe(false);
    // A name given twice: only the first is read here (the whole page's reading takes the last).
    const twice = Buffer.from('{"cursor":"a","cursor":"b","more":true}');
    expect(spans.parseSpan(twice, spans.leadingMembers(twice, names)!.get('cursor')!)).toBe('a');
  });
});
