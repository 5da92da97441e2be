// What the registry's command-line tools share: how results and errors are printed, and how
// `--flag value` pairs become the typed input of an operation. Flags are derived from the
// operation's own zod schema (field `organizationId` is `--organization-id`), so the CLI can never
// accept a field the operation does not know; values are converted to the type the schema expects
// before the operation validates them.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { RegistryError } from '../errors';
import { DamagedDatabaseError } from '../maintenance';

/** A usage error: printed like any other error, exit code 1, nothing touched. */
export class CliError extends Error {}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function errorMessage(error: unknown): string {
  return error instanceof RegistryError || error instanceof CliError || error instanceof DamagedDatabaseError
    ? error.message
    : error instanceof Error
      ? `unexpected error: ${error.message}`
      : `unexpected error: ${String(error)}`;
}

/** Prints `{ "error": "..." }` to stderr and exits 1 (the admin CLI: its output is JSON). */
export function fail(error: unknown): never {
  process.stderr.write(`${JSON.stringify({ error: errorMessage(error) })}\n`);
  process.exit(1);
}

/**
 * For a command people read, not parse (`serve` prints plain lines): the error as a sentence on
 * stderr, with where to find the options after a usage error, and exit 1.
 */
export function failInWords(command: string, error: unknown): never {
  process.stderr.write(`${command}: ${errorMessage(error)}\n`);
  if (error instanceof CliError) process.stderr.write(`"npm run ${command} -- --help" lists every option.\n`);
  process.exit(1);
}

export const kebab = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Reads a file, or standard input for `-`. */
export function readTextInput(pathOrDash: string, what: string): string {
  try {
    return readFileSync(pathOrDash === '-' ? 0 : pathOrDash, 'utf8');
  } catch (error) {
    throw new CliError(
      `${what}: cannot read ${pathOrDash === '-' ? 'standard input' : pathOrDash} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`${what}: not valid JSON`);
  }
}

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: readonly z.ZodType[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { def: SchemaDef }).def;

/** The definition a field finally holds, under optional / default / nullable wrappers and transforms. */
function baseDef(schema: z.ZodType): SchemaDef {
  let def = defOf(schema);
  for (;;) {
    if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') && def.innerType) {
      def = defOf(def.innerType);
    } else if (def.type === 'pipe' && def.in) {
      def = defOf(def.in);
    } else {
      return def;
    }
  }
}

export type FieldKind = 'string' | 'number' | 'boolean' | 'json' | 'account';

export function fieldKind(schema: z.ZodType): FieldKind {
  const def = baseDef(schema);
  if (def.type === 'number' || def.type === 'int') return 'number';
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'object' || def.type === 'array' || def.type === 'record') return 'json';
  // A union of objects is an account reference (from / to); a union of string formats (dates) is text.
  if (def.type === 'union' && (def.options ?? []).every((option) => baseDef(option).type === 'object')) return 'account';
  return 'string';
}

/**
 * `inventory:<organization id>`, `warehouse:<organization id>`, `wallet:<0x address>`, or one of
 * the registry's own accounts `buffer`, `adjustment`, `registry`; JSON is accepted too.
 */
export function parseAccountRef(raw: string, flag: string): unknown {
  if (raw.trim().startsWith('{')) return parseJson(raw, `--${flag}`);
  const [kind, value, ...rest] = raw.split(':');
  if (rest.length > 0) throw new CliError(`--${flag}: expected kind[:id], got "${raw}"`);
  switch (kind) {
    case 'inventory':
    case 'warehouse':
      if (!value) throw new CliError(`--${flag}: ${kind} needs an organization id (${kind}:<organization id>)`);
      return { kind, organizationId: value };
    case 'wallet':
      if (!value) throw new CliError(`--${flag}: wallet needs an address (wallet:0x…)`);
      return { kind, address: value };
    case 'buffer':
    case 'adjustment':
    case 'registry':
      if (value !== undefined) throw new CliError(`--${flag}: the ${kind} account takes no id`);
      return { kind };
    default:
      throw new CliError(
        `--${flag}: unknown account kind "${kind}" (inventory:<org>, warehouse:<org>, wallet:<address>, buffer, adjustment, registry)`,
      );
  }
}

/** Converts a flag's text to what the field holds; anything unconvertible is passed on for the schema to reject. */
export function coerceFlag(kind: FieldKind, raw: string, flag: string): unknown {
  switch (kind) {
    case 'number':
      return /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'json':
      return parseJson(raw, `--${flag}`);
    case 'account':
      return parseAccountRef(raw, flag);
    default:
      return raw;
  }
}

/**
 * Boolean flags may stand alone (`--verified`): give them the value `true` so that every flag can
 * be declared as taking a value (`--verified false` works too).
 */
export function expandBareBooleans(args: readonly string[], booleanFlags: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    out.push(arg);
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name && booleanFlags.has(name)) {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) out.push('true');
    }
  }
  return out;
}
