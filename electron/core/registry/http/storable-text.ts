// U+0000 is refused in every parameter, query and body, on both engines (docs/api.md).
import { RegistryError } from '../errors';

/**
 * Where the first text holding U+0000 is (a value or a field name, in document order), or undefined.
 * Refused on both engines: PostgreSQL cannot keep it in text, and libpq ends a parameter at it, so
 * what was stored there would silently differ from what was sent. A loop over a stack, no recursion
 * (the body's depth is bounded at parse time anyway).
 */
export function nulCharacterAt(value: unknown, where: string): string | undefined {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return path;
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${path}.${i}`]);
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      const badKey = entries.find(([key]) => key.includes('\u0000'));
      if (badKey) return `${path}.${badKey[0].replaceAll('\u0000', '\\u0000')}`;
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], `${path}.${entries[i]![0]}`]);
    }
  }
  return undefined;
}

/** 400 naming where a text holds U+0000 (the value's own name, as zod's messages name it). */
export function refuseNulCharacter(value: unknown, where: string): void {
  const at = nulCharacterAt(value, where);
  if (at !== undefined) throw new RegistryError('bad_request', `${at}: must not contain the NUL character (U+0000)`);
}
