// zod's problems in words a reader of an error understands. zod's own English ("Invalid input:
// expected nonoptional", "Too big: expected string to have <=500 characters") talks about its types;
// a refusal must say what the field needs instead. Installed once, process-wide, when this module is
// loaded: every place that turns zod issues into a message imports it (the registry's pipeline and
// operations, the desk's IPC), so the translation is in place before any input is parsed. A message
// a schema states itself (`.min(1, 'must not be empty')`, a refine's text) still wins over this one.
import { z } from 'zod';

type RawIssue = z.core.$ZodRawIssue;

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  tuple: 'a list',
  null: 'null',
  date: 'a date',
};

/** What a JSON value is, in words. */
function kindOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  switch (typeof input) {
    case 'string':
      return 'text';
    case 'number':
      return Number.isFinite(input) ? 'a number' : String(input);
    case 'boolean':
      return input ? 'true' : 'false';
    case 'object':
      return 'an object';
    default:
      return typeof input;
  }
}

const FORMAT_WORDS: Record<string, string> = {
  uuid: 'must be a UUID such as 5fe79b21-6e82-4c4a-92c1-1ee309742f5f',
  guid: 'must be a UUID such as 5fe79b21-6e82-4c4a-92c1-1ee309742f5f',
  datetime: 'must be a date and time with its offset, such as 2024-01-31T12:00:00Z',
  date: 'must be a date such as 2024-01-31',
  time: 'must be a time of day such as 12:00:00',
  email: 'must be an email address',
  url: 'must be a web address',
  regex: 'is not written in the form this field takes',
};

const plural = (n: number | bigint, one: string, many: string) => `${String(n)} ${Number(n) === 1 ? one : many}`;

function sizeLimit(
  issue: { origin: string; exact?: boolean; inclusive?: boolean },
  bound: number | bigint,
  side: 'most' | 'least',
): string {
  const comparison = issue.exact ? 'exactly' : `at ${side}`;
  switch (issue.origin) {
    case 'string':
      return `must be ${comparison} ${plural(bound, 'character', 'characters')}`;
    case 'array':
    case 'set':
      return `must have ${comparison} ${plural(bound, 'item', 'items')}`;
    case 'file':
      return `must be ${comparison} ${plural(bound, 'byte', 'bytes')}`;
    default:
      if (issue.exact) return `must be exactly ${String(bound)}`;
      if (issue.inclusive === false) return `must be ${side === 'most' ? 'less' : 'greater'} than ${String(bound)}`;
      return `must be at ${side} ${String(bound)}`;
  }
}

/** A union none of whose forms fit: the forms' own words, when each said one thing about this value. */
function unionMessage(issue: Extract<RawIssue, { code: 'invalid_union' }>): string {
  if ('options' in issue && Array.isArray(issue.options) && issue.options.length > 0) {
    return `must be one of ${issue.options.map(String).join(', ')}`;
  }
  const branches = (issue.errors ?? []) as { path: PropertyKey[]; message: string }[][];
  const said = branches.map((b) => (b.length === 1 && b[0]!.path.length === 0 ? b[0]!.message : undefined));
  if (said.length > 0 && said.every((m) => m !== undefined)) {
    const forms = [...new Set(said.map((m) => m.replace(/^must be /, '')))];
    return `must be ${forms.join(', or ')}`;
  }
  return 'is not in any of the forms this field takes';
}

/** One issue in plain words (zod's raw issue, before its message is made). */
export function plainZodMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'int' && typeof issue.input === 'number') return 'must be a whole number';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_big':
      return sizeLimit(issue, issue.maximum, 'most');
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return sizeLimit(issue, issue.minimum, 'least');
    case 'invalid_format':
      if (issue.format === 'starts_with' && 'prefix' in issue) return `must start with ${String(issue.prefix)}`;
      if (issue.format === 'ends_with' && 'suffix' in issue) return `must end with ${String(issue.suffix)}`;
      return FORMAT_WORDS[issue.format] ?? `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')} (remove ${issue.keys.length === 1 ? 'it' : 'them'})`;
    case 'invalid_union':
      return unionMessage(issue);
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has a value that is not allowed';
    default:
      return 'is not valid';
  }
}

z.config({ customError: plainZodMessage });

/** Formats zod issues as `path: message` lines (every problem, as compatibility.md asks). */
export function zodMessages(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix = ''): string[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}
