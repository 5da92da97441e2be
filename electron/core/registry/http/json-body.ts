// JSON request bodies, parsed with a bound on nesting: the depth is counted over the text (a loop,
// no recursion) before JSON.parse runs, so nothing after it (validation, canonical hashing, the
// audit's redaction) can meet a structure deep enough to exhaust the stack. Every endpoint's body
// goes through here.
import { RegistryError } from '../errors';
import { refuseUnstorableText } from './storable-text';

/** The deepest nesting of arrays and objects a body may have (the deepest real body is 4). */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of `[`/`{` in JSON text, strings skipped; stops counting past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

/** The body's value: `{}` for an empty body; 400 for text that is not JSON, is nested too deep, or holds text that cannot be kept as sent. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return {};
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new RegistryError('bad_request', `body: nested more than ${MAX_JSON_DEPTH} levels deep (arrays and objects)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new RegistryError('bad_request', 'body: not valid JSON');
  }
  // before anything reads a field name or keeps the body (unknown fields, the audit's input)
  refuseUnstorableText(value, 'body');
  return value;
}

/** `-1.50e3` as its significant digits and the exponent of their last digit: ['15', 2]. */
function decimalOf(token: string): [string, number] {
  const [mantissa = '', exp = '0'] = token.replace(/^-/, '').toLowerCase().split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let exponent = Number(exp) - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return digits === '' ? ['0', 0] : [digits, exponent];
}

/**
 * The number literals of JSON text that a double cannot hold exactly (JSON.parse would round them:
 * 99999999999999999 becomes 100000000000000000), as written, so a refusal can quote them.
 */
export function inexactNumbers(text: string): string[] {
  const out: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const token = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400))?.[0];
      if (!token) continue;
      i += token.length - 1;
      const [digits] = decimalOf(token);
      if (digits.length <= 15) continue; // 15 significant digits always survive a double
      const value = Number(token);
      const [a, ea] = decimalOf(token);
      const [b, eb] = Number.isFinite(value) ? decimalOf(String(value)) : ['', 0];
      if (a !== b || ea !== eb) out.push(token.length > 60 ? `${token.slice(0, 60)}…` : token);
    }
  }
  return out;
}
