// Text the registry can keep exactly as it was sent: refused otherwise in every parameter, query and
// body, on both engines (docs/api.md).
// - U+0000: PostgreSQL cannot keep it in text, and libpq ends a parameter at it.
// - An unpaired surrogate (JSON's "\ud800" escape allows one): text is stored as UTF-8, which has
//   no way to write it, so both engines would keep U+FFFD in its place.
// Either way what was stored would silently differ from what was sent.
import { RegistryError } from '../errors';

/** A high surrogate not followed by a low one, or a low one not after a high one (UTF-16 code units). */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be kept as sent, or undefined when it can. */
function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be well-formed Unicode text: it holds an unpaired surrogate (half of a UTF-16 pair)';
  return undefined;
}

/** A field name as a message can show it: the characters it cannot show, escaped. */
const shown = (key: string) => key.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The first text (a value or a field name, in document order) that cannot be kept as sent: where it
 * is and why, or undefined. A loop over a stack, no recursion (a body's depth is bounded at parse
 * time anyway).
 */
export function unstorableTextAt(value: unknown, where: string): { at: string; problem: string } | undefined {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      const problem = unstorable(node);
      if (problem !== undefined) return { at: path, problem };
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${path}.${i}`]);
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      for (const [key] of entries) {
        const problem = unstorable(key);
        if (problem !== undefined) return { at: `${path}.${shown(key)}`, problem };
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], `${path}.${entries[i]![0]}`]);
    }
  }
  return undefined;
}

/** 400 naming where a text cannot be kept as sent (the value's own name, as zod's messages name it). */
export function refuseUnstorableText(value: unknown, where: string): void {
  const found = unstorableTextAt(value, where);
  if (found !== undefined) throw new RegistryError('bad_request', `${found.at}: ${found.problem}`);
}
