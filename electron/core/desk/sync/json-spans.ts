// Where the members of a JSON object and the elements of a JSON array are in a text, found without
// building them: a large answer (a registry inventory is 21 MB at scale 100) can then be parsed one
// element at a time, so its text and its whole parsed graph are never held together. Only the
// structure at the levels walked is checked here (braces, brackets, commas, colons, strings);
// every piece is then read with JSON.parse, which checks the rest, so the text as a whole is
// checked exactly as one JSON.parse would.

export class JsonShapeError extends Error {
  override readonly name = 'JsonShapeError';
}

export interface Span {
  start: number;
  end: number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just after the string that starts at `i` (a quote). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c)
      j++; // a backslash: the next character is escaped
    else if (c === 0x22) return j + 1;
  }
  throw new JsonShapeError('a string is not closed');
}

/** The index just after the value that starts at `i` (no leading space). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x22) j = skipString(text, j) - 1;
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
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
    j++;
  }
  if (j === i) throw new JsonShapeError(`unexpected ${i < text.length ? JSON.stringify(text[i]) : 'end'} at ${i}`);
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
 * that wants both the object's members and that array's elements scans the text once.
 */
function walk(
  text: string,
  start: number,
  kind: 'object' | 'array',
  found: { key: string | null; value: Span }[],
  expand?: Expand,
): number {
  const [open, close] = kind === 'object' ? [0x7b, 0x7d] : [0x5b, 0x5d];
  if (text.charCodeAt(start) !== open) throw new JsonShapeError(`not an ${kind}`);
  let i = skipSpace(text, start + 1);
  if (text.charCodeAt(i) === close) return i + 1;
  for (;;) {
    let key: string | null = null;
    if (kind === 'object') {
      if (text.charCodeAt(i) !== 0x22) throw new JsonShapeError(`a member name was expected at ${i}`);
      const keyEnd = skipString(text, i);
      key = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipSpace(text, keyEnd);
      if (text.charCodeAt(i) !== 0x3a) throw new JsonShapeError(`a colon was expected at ${i}`);
      i = skipSpace(text, i + 1);
    }
    let end: number;
    if (expand && key === expand.name && text.charCodeAt(i) === 0x5b) {
      const elements: { key: string | null; value: Span }[] = [];
      end = walk(text, i, 'array', elements);
      expand.elements = elements.map((e) => e.value);
    } else {
      if (expand && key === expand.name) expand.elements = null;
      end = skipValue(text, i);
    }
    found.push({ key, value: { start: i, end } });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === close) return i + 1;
    if (c !== 0x2c) throw new JsonShapeError(`a comma was expected at ${i}`);
    i = skipSpace(text, i + 1);
  }
}

/** The members of the object or the elements of the array at `span`, which must end where it does. */
function members(text: string, span: Span, kind: 'object' | 'array', expand?: Expand): { key: string | null; value: Span }[] {
  const found: { key: string | null; value: Span }[] = [];
  const end = walk(text, span.start, kind, found, expand);
  if (end !== span.end) throw new JsonShapeError(`unexpected text at ${end}`);
  return found;
}

/**
 * The span of the whole text's one value (surrounding space allowed). Only its ends are found here:
 * the value itself is checked as it is walked (objectMembers, arrayElements: each checks that it
 * closes exactly at the span's end) or parsed (parseSpan), so the text is not scanned twice.
 */
export function rootSpan(text: string): Span {
  const start = skipSpace(text, 0);
  if (start === text.length) throw new JsonShapeError('the text is empty');
  let end = text.length;
  while (isSpace(text.charCodeAt(end - 1))) end--;
  return { start, end };
}

/** The members of the object at `span`, by name (a repeated name: the last one, as JSON.parse does). */
export function objectMembers(text: string, span: Span): Map<string, Span> {
  return namedMembers(text, members(text, span, 'object'));
}

function namedMembers(text: string, found: { key: string | null; value: Span }[]): Map<string, Span> {
  const byName = new Map<string, Span>();
  for (const { key, value } of found) {
    const earlier = byName.get(key!);
    // A value a later member of the same name replaces is never read by the caller, yet JSON.parse
    // still refuses the whole text when that value is not valid JSON: check it here.
    if (earlier) JSON.parse(text.slice(earlier.start, earlier.end));
    byName.set(key!, value);
  }
  return byName;
}

/**
 * The members of the object at `span` (as objectMembers), and the elements of its member `name`
 * when that is an array (as arrayElements of it; null otherwise), in one scan of the text.
 */
export function objectMembersAndElements(text: string, span: Span, name: string): { members: Map<string, Span>; elements: Span[] | null } {
  const expand: Expand = { name, elements: null };
  const found = members(text, span, 'object', expand);
  return { members: namedMembers(text, found), elements: expand.elements };
}

/** The elements of the array at `span`. */
export function arrayElements(text: string, span: Span): Span[] {
  return members(text, span, 'array').map((m) => m.value);
}

/** Whether the value at `span` is an array (its first character). */
export const isArraySpan = (text: string, span: Span) => text.charCodeAt(span.start) === 0x5b;

/** The value at `span`, parsed. */
export const parseSpan = (text: string, span: Span): unknown => JSON.parse(text.slice(span.start, span.end));
