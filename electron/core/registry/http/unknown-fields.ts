// The fields of a body its schema does not know, at any depth. zod's plain objects drop such fields
// silently; an operator write refuses them instead (400 naming them), so nothing the server ignores
// can reach the audit log or be mistaken for part of the request. Walks the schema's definition
// alongside the value; the value's depth was bounded at parse time (json-body.ts).
import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object shapes a schema accepts at this level (through optional, default, pipe, union...). */
function shapesOf(schema: z.ZodType, seen = 0): Def[] {
  if (seen > 20) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return [def];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? shapesOf(def.innerType, seen + 1) : [];
    case 'pipe':
      return def.in ? shapesOf(def.in, seen + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((o) => shapesOf(o, seen + 1));
    default:
      return [];
  }
}

function elementOf(schema: z.ZodType, seen = 0): z.ZodType | undefined {
  if (seen > 20) return undefined;
  const def = defOf(schema);
  if (def.type === 'array') return def.element;
  const inner = def.type === 'pipe' ? def.in : def.innerType;
  return inner ? elementOf(inner, seen + 1) : undefined;
}

/** Paths (`a.b`, `items[2].c`) of the fields in `value` that `schema` does not declare. */
export function unknownFields(schema: z.ZodType, value: unknown, path = ''): string[] {
  if (Array.isArray(value)) {
    const element = elementOf(schema);
    return element ? value.flatMap((v, i) => unknownFields(element, v, `${path}[${i}]`)) : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  const shapes = shapesOf(schema);
  // not an object schema here (a record, a free-form value), or one that takes any field
  if (shapes.length === 0 || shapes.some((s) => s.catchall !== undefined && defOf(s.catchall).type !== 'never')) return [];
  const out: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = shapes.find((s) => s.shape && Object.hasOwn(s.shape, key))?.shape?.[key];
    const at = path === '' ? key : `${path}.${key}`;
    if (field === undefined) out.push(at);
    else out.push(...unknownFields(field, v, at));
  }
  return out;
}

/** The 400 message for unknown fields: the first few by name, and how many more. */
export function unknownFieldsMessage(fields: string[]): string {
  const shown = fields.slice(0, 10).map((f) => (f.length > 60 ? `${f.slice(0, 60)}…` : f));
  const more = fields.length > shown.length ? ` and ${fields.length - shown.length} more` : '';
  return `body: unknown field${fields.length === 1 ? '' : 's'} ${shown.join(', ')}${more}; remove ${fields.length === 1 ? 'it' : 'them'}`;
}
