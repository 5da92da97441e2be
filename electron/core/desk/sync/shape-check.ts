// A fast check of parsed JSON against a zod schema, compiled once from the schema's definition, for
// the changes feed's items (tens of thousands per sync: a full zod parse of each, building a
// validated copy, was a tenth of the desk's time). It answers true only when zod would accept the
// value AND give back a copy equal to it, key order included (no unknown fields, fields in the
// schema's order): the value can then be used, and written as JSON, as it is. Anything else (a value
// zod refuses, or one it would reshape) answers false, and the caller runs zod itself, for its
// output or its error message. So the check never decides what is accepted: zod does, whenever the
// check is not sure.
//
// Known to it: objects (tolerant: unknown fields make it answer false), strings (regex and
// length-equals checks, string formats with a pattern), numbers (safe-integer format, bounds),
// booleans, literals, enums, nullable, optional, arrays, records of strings, unions and
// discriminated unions. Any other schema or check compiles to "not sure".
import type { z } from 'zod';

type Check = (value: unknown) => boolean;

const notSure: Check = () => false;

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  pattern?: RegExp;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  values?: unknown[];
  entries?: Record<string, unknown>;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  length?: number;
  value?: unknown;
  inclusive?: boolean;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The checks of a string or number, or null when one is unknown. */
function compileChecks(def: Def): Check[] | null {
  const out: Check[] = [];
  if (def.pattern instanceof RegExp) {
    const pattern = def.pattern;
    out.push((v) => pattern.test(v as string));
  }
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'string_format' && c.pattern instanceof RegExp) {
      const pattern = c.pattern;
      out.push((v) => pattern.test(v as string));
    } else if (c.check === 'length_equals' && typeof c.length === 'number') {
      const length = c.length;
      out.push((v) => (v as string).length === length);
    } else if (c.check === 'number_format' && c.format === 'safeint') {
      out.push((v) => Number.isSafeInteger(v));
    } else if (c.check === 'greater_than' && typeof c.value === 'number') {
      const bound = c.value;
      out.push(c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound);
    } else if (c.check === 'less_than' && typeof c.value === 'number') {
      const bound = c.value;
      out.push(c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound);
    } else return null;
  }
  return out;
}

function compile(schema: z.ZodType): Check {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const checks = compileChecks(def);
      if (!checks) return notSure;
      return (v) => typeof v === 'string' && checks.every((check) => check(v));
    }
    case 'number': {
      const checks = compileChecks(def);
      if (!checks) return notSure;
      return (v) => typeof v === 'number' && Number.isFinite(v) && checks.every((check) => check(v));
    }
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'literal': {
      const values = def.values ?? [];
      return (v) => values.includes(v);
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      return (v) => values.includes(v);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      const element = compile(def.element!);
      return (v) => Array.isArray(v) && v.every((item) => element(item));
    }
    case 'record': {
      if (defOf(def.keyType!).type !== 'string' || compileChecks(defOf(def.keyType!))?.length !== 0) return notSure;
      const value = compile(def.valueType!);
      return (v) => isPlainObject(v) && Object.values(v).every((item) => value(item));
    }
    case 'object':
      return compileObject(def.shape!);
    case 'union':
      return def.discriminator !== undefined ? compileDiscriminated(def.discriminator, def.options!) : compileUnion(def.options!);
    default:
      return notSure;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Exactly the shape's fields, in its order (optional ones may be missing), each as its schema says. */
function compileObject(shape: Record<string, z.ZodType>): Check {
  const fields = Object.entries(shape).map(([key, schema]) => {
    const def = defOf(schema);
    const optional = def.type === 'optional';
    return { key, optional, check: compile(optional ? def.innerType! : schema) };
  });
  return (v) => {
    if (!isPlainObject(v)) return false;
    let f = 0;
    for (const key in v) {
      while (f < fields.length && fields[f]!.key !== key) {
        if (!fields[f]!.optional) return false;
        f++;
      }
      if (f === fields.length || !fields[f]!.check(v[key])) return false;
      f++;
    }
    for (; f < fields.length; f++) if (!fields[f]!.optional) return false;
    return true;
  };
}

/**
 * zod answers the first option that accepts the value: the check is sure only when that option is
 * the first one the value exactly matches, so an earlier option that zod might accept (the value
 * with unknown fields, say) makes it unsure.
 */
function compileUnion(options: z.ZodType[]): Check {
  const exact = options.map(compile);
  return (v) => {
    for (const [i, option] of options.entries()) {
      if (exact[i]!(v)) return true;
      if (option.safeParse(v).success) return false;
    }
    return false;
  };
}

/** The option named by the discriminator's literal value, matched exactly. */
function compileDiscriminated(discriminator: string, options: z.ZodType[]): Check {
  const byValue = new Map<unknown, Check>();
  for (const option of options) {
    const shape = defOf(option).shape;
    const tag = shape?.[discriminator];
    if (!tag || defOf(tag).type !== 'literal') return notSure;
    const check = compile(option);
    for (const value of defOf(tag).values ?? []) byValue.set(value, check);
  }
  return (v) => isPlainObject(v) && (byValue.get(v[discriminator]) ?? notSure)(v);
}

/**
 * A check of values against `schema`: true means zod would accept the value and answer an equal
 * copy of it (so it may be used as it is); false means "run zod".
 */
export function compileShapeCheck<S extends z.ZodType>(schema: S): (value: unknown) => value is z.output<S> {
  return compile(schema) as (value: unknown) => value is z.output<S>;
}
