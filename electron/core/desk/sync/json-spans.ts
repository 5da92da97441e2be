// Where the members of a JSON object and the elements of a JSON array are in an answer's UTF-8
// bytes, found without building them: a large answer (a registry inventory is 21 MB at scale 100)
// can then be parsed one element at a time, so its bytes and its whole parsed graph are never held
// together. Only the structure at the levels walked is checked here (braces, brackets, commas,
// colons, strings); every piece is then read with JSON.parse, which checks the rest, so the answer
// as a whole is checked exactly as one JSON.parse would.
//
// Bytes rather than decoded text: a text decoded whole is a string of two bytes per character as
// soon as it holds one non-Latin-1 character (every page of a seeded registry does), so an
// inventory page took twice its size in heap beside the bytes it was decoded from; kept as bytes,
// and each piece is decoded as it is parsed (mostly into one-byte strings, which JSON.parse reads
// faster). Strings are skipped with a native search for their closing quote.
//
// Decoding: a span starts and ends at an ASCII character, never inside a multi-byte sequence, so a
// piece decodes exactly as it would inside the whole text (invalid sequences included: both become
// U+FFFD as `Response.text()` makes them); a leading byte order mark is skipped as text() skips it.

export class JsonShapeError extends Error {
  override readonly name = 'JsonShapeError';
}

export interface Span {
  start: number;
  end: number;
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(bytes: Buffer, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

/** The index just after the string that starts at `i` (a quote). */
function skipString(bytes: Buffer, i: number): number {
  for (let j = bytes.indexOf(0x22, i + 1); j !== -1; j = bytes.indexOf(0x22, j + 1)) {
    // The quote closes the string unless an odd run of backslashes escapes it.
    let k = j - 1;
    while (bytes[k] === 0x5c) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
  }
  throw new JsonShapeError('a string is not closed');
}

/** The index just after the value that starts at `i` (no leading space). */
function skipValue(bytes: Buffer, i: number): number {
  const c = bytes[i];
  if (c === 0x22) return skipString(bytes, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < bytes.length; j++) {
      const d = bytes[j];
      if (d === 0x22) j = skipString(bytes, j) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new JsonShapeError('an object or array is not closed');
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < bytes.length) {
    const d = bytes[j];
    if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
    j++;
  }
  if (j === i) throw new JsonShapeError(`unexpected ${i < bytes.length ? `byte ${bytes[i]}` : 'end'} at ${i}`);
  return j;
}

/** Where `walk` puts the elements of one named member's array as it passes it (the last such member's). */
interface Expand {
  name: string;
  elements: Span[] | null;
}

/**
 * Walks the members of the object or the elements of the array that starts at `start`, adding them
 * to `found`, and returns the index just after its closing brace or bracket. The array value of the
 * member `expand.name` is walked element by element on the way (instead of skipped), so a caller
 * that wants both the object's members and that array's elements scans the bytes once.
 */
function walk(
  bytes: Buffer,
  start: number,
  kind: 'object' | 'array',
  found: { key: string | null; value: Span }[],
  expand?: Expand,
): number {
  const [open, close] = kind === 'object' ? [0x7b, 0x7d] : [0x5b, 0x5d];
  if (bytes[start] !== open) throw new JsonShapeError(`not an ${kind}`);
  let i = skipSpace(bytes, start + 1);
  if (bytes[i] === close) return i + 1;
  for (;;) {
    let key: string | null = null;
    if (kind === 'object') {
      if (bytes[i] !== 0x22) throw new JsonShapeError(`a member name was expected at ${i}`);
      const keyEnd = skipString(bytes, i);
      key = JSON.parse(bytes.toString('utf8', i, keyEnd)) as string;
      i = skipSpace(bytes, keyEnd);
      if (bytes[i] !== 0x3a) throw new JsonShapeError(`a colon was expected at ${i}`);
      i = skipSpace(bytes, i + 1);
    }
    let end: number;
    if (expand && key === expand.name && bytes[i] === 0x5b) {
      const elements: { key: string | null; value: Span }[] = [];
      end = walk(bytes, i, 'array', elements);
      expand.elements = elements.map((e) => e.value);
    } else {
      if (expand && key === expand.name) expand.elements = null;
      end = skipValue(bytes, i);
    }
    found.push({ key, value: { start: i, end } });
    i = skipSpace(bytes, end);
    const c = bytes[i];
    if (c === close) return i + 1;
    if (c !== 0x2c) throw new JsonShapeError(`a comma was expected at ${i}`);
    i = skipSpace(bytes, i + 1);
  }
}

function members(bytes: Buffer, span: Span, kind: 'object' | 'array', expand?: Expand): { key: string | null; value: Span }[] {
  const found: { key: string | null; value: Span }[] = [];
  const end = walk(bytes, span.start, kind, found, expand);
  if (end !== span.end) throw new JsonShapeError(`unexpected text at ${end}`);
  return found;
}

/** The span of the bytes' one value (surrounding space and a leading byte order mark allowed). */
export function rootSpan(bytes: Buffer): Span {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const start = skipSpace(bytes, bom);
  if (start === bytes.length) throw new JsonShapeError('the text is empty');
  let end = bytes.length;
  while (isSpace(bytes[end - 1])) end--;
  return { start, end };
}

/** The members of the object at `span`, by name (a repeated name: the last one, as JSON.parse does). */
export function objectMembers(bytes: Buffer, span: Span): Map<string, Span> {
  return namedMembers(bytes, members(bytes, span, 'object'));
}

function namedMembers(bytes: Buffer, found: { key: string | null; value: Span }[]): Map<string, Span> {
  const byName = new Map<string, Span>();
  for (const { key, value } of found) {
    const earlier = byName.get(key!);
    // A replaced value is never read by the caller, yet JSON.parse refuses a text where it is not valid.
    if (earlier) parseSpan(bytes, earlier);
    byName.set(key!, value);
  }
  return byName;
}

/** objectMembers, and the elements of its member `name` when that is an array (null otherwise), in one scan. */
export function objectMembersAndElements(bytes: Buffer, span: Span, name: string): { members: Map<string, Span>; elements: Span[] | null } {
  const expand: Expand = { name, elements: null };
  const found = members(bytes, span, 'object', expand);
  return { members: namedMembers(bytes, found), elements: expand.elements };
}

/** The elements of the array at `span`. */
export function arrayElements(bytes: Buffer, span: Span): Span[] {
  return members(bytes, span, 'array').map((m) => m.value);
}

/** Whether the value at `span` is an array (its first byte). */
export const isArraySpan = (bytes: Buffer, span: Span) => bytes[span.start] === 0x5b;

/** Whether the value at `span` is an object (its first byte). */
export const isObjectSpan = (bytes: Buffer, span: Span) => bytes[span.start] === 0x7b;

/** The text of the value at `span`. */
export const spanText = (bytes: Buffer, span: Span): string => bytes.toString('utf8', span.start, span.end);

/** The value at `span`, parsed. */
export const parseSpan = (bytes: Buffer, span: Span): unknown => JSON.parse(spanText(bytes, span));

/**
 * The leading members of the object that `prefix` begins, as far as they are complete in it and
 * named in `names`: the walk stops at the first member not named (its value is not skipped: the
 * prefix is the start of an answer still arriving) or at the prefix's end. Null where the prefix
 * does not begin an object. Nothing here is checked beyond what it reads: the whole answer is read
 * again once it has arrived.
 */
export function leadingMembers(prefix: Buffer, names: ReadonlySet<string>): Map<string, Span> | null {
  const found = new Map<string, Span>();
  const bom = prefix[0] === 0xef && prefix[1] === 0xbb && prefix[2] === 0xbf ? 3 : 0;
  let i = skipSpace(prefix, bom);
  if (i < prefix.length && prefix[i] !== 0x7b) return null;
  i = skipSpace(prefix, i + 1);
  try {
    while (i < prefix.length && prefix[i] === 0x22) {
      const keyEnd = skipString(prefix, i);
      const key = JSON.parse(prefix.toString('utf8', i, keyEnd)) as string;
      if (!names.has(key) || found.has(key)) break;
      i = skipSpace(prefix, keyEnd);
      if (prefix[i] !== 0x3a) break;
      i = skipSpace(prefix, i + 1);
      if (i >= prefix.length) break;
      const end = skipValue(prefix, i);
      // A literal or number is complete only once the byte after it has arrived.
      if (end >= prefix.length) break;
      found.set(key, { start: i, end });
      i = skipSpace(prefix, end);
      if (prefix[i] !== 0x2c) break;
      i = skipSpace(prefix, i + 1);
    }
  } catch (error) {
    // A string, object or array the prefix ends inside of: what came before it stands.
    if (!(error instanceof JsonShapeError)) throw error;
  }
  return found;
}
