// The registry operator's CLI: `npm run admin -- <command> --data <dir> [flags]` (or
// `--database postgres://…`: the shared registry on PostgreSQL; seed-demo then writes
// demo-credentials.json into the current folder).
// Prints the operation's result as JSON on stdout; any error as {"error": "..."} on stderr with
// exit code 1. Every operation validates its whole input before it changes anything and runs in
// one transaction, so a failed command leaves the registry as it was. Every command that changes the
// registry leaves one audit entry (its outcome, the CLI and the OS user as the actor).
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { backupRegistry, checkRegistryFile, restoreRegistry } from '../maintenance';
import { audited } from '../audit';
import { openPostgresRegistry, openRegistry } from '../open';
import { COMMANDS, type CommandSpec } from './admin-commands';
import {
  CliError,
  coerceFlag,
  expandBareBooleans,
  fail,
  fieldKind,
  kebab,
  parseJson,
  printJson,
  readTextInput,
  type FieldKind,
} from './args';

interface Flag {
  field: string;
  kind: FieldKind | 'file';
}

/** Every flag of a command: one per schema field (not fixed), plus its aliases and file flags. */
function flagsOf(spec: CommandSpec): Map<string, Flag> {
  const flags = new Map<string, Flag>();
  for (const [field, schema] of Object.entries(spec.input.shape)) {
    if (spec.fixed && field in spec.fixed) continue;
    flags.set(kebab(field), { field, kind: fieldKind(schema as never) });
  }
  for (const [alias, field] of Object.entries(spec.aliases ?? {})) flags.set(alias, { ...flags.get(kebab(field))!, field });
  for (const [flag, field] of Object.entries(spec.fileFlags ?? {})) flags.set(flag, { field, kind: 'file' });
  return flags;
}

const GLOBAL_FLAGS = {
  data: 'the registry data folder (holds registry.sqlite)',
  database: 'instead of --data: the shared registry on PostgreSQL (postgres://user@host:port/db)',
  json: 'read the whole input as a JSON object from a file, or - for standard input; flags override it',
  file: 'same as --json',
} as const;

function usage(name?: string): string {
  if (name && COMMANDS[name]) {
    const spec = COMMANDS[name];
    const lines = [`npm run admin -- ${name} --data <dir> [flags]`, '', spec.summary, '', 'Flags:'];
    for (const [flag, { field, kind }] of flagsOf(spec))
      lines.push(
        `  --${flag} <${kind === 'file' ? 'file' : kind === 'account' ? 'account' : kind}>${kebab(field) === flag ? '' : `  (${field})`}`,
      );
    for (const [flag, text] of Object.entries(GLOBAL_FLAGS)) lines.push(`  --${flag}  ${text}`);
    if (spec.example) lines.push('', `Example: npm run admin -- ${name} --data ./data ${spec.example}`);
    return lines.join('\n');
  }
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'npm run admin -- <command> --data <dir> [flags]     (npm run admin -- help <command> for its flags)',
    '',
    ...Object.entries(COMMANDS).map(([c, spec]) => `  ${c.padEnd(width)}  ${spec.summary}`),
    '',
    'The database file itself:',
    ...Object.values(MAINTENANCE).map((m) => `  npm run admin -- ${m.usage.padEnd(28)}  ${m.summary}`),
    '',
    'Output is JSON on stdout; errors are {"error": "..."} on stderr with exit code 1.',
  ].join('\n');
}

/** The file's own commands, outside the operations table: they work on the file, not through the registry. */
const MAINTENANCE: Record<string, { usage: string; summary: string }> = {
  check: { usage: 'check --data <dir>', summary: "SQLite's full integrity check of registry.sqlite (exit code 1 on damage)." },
  backup: {
    usage: 'backup <file> --data <dir>',
    summary: 'Online backup of registry.sqlite into a new file (the registry may keep serving), then checked.',
  },
  restore: {
    usage: 'restore <file> --data <dir>',
    summary: 'With the registry stopped: check a backup and put it in place; the replaced file is kept beside it.',
  },
};

async function runMaintenance(name: string, args: string[]): Promise<void> {
  let values: { data?: string | undefined; database?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { data: { type: 'string' }, database: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}. Usage: npm run admin -- ${MAINTENANCE[name]!.usage}`);
  }
  if (values.database !== undefined) {
    throw new CliError(`${name} is for the SQLite file; on PostgreSQL use pg_dump and pg_restore (docs/operations.md, Backup and restore)`);
  }
  const dataDir = values.data;
  if (!dataDir) throw new CliError('--data <dir> is required (the registry data folder)');
  const expected = name === 'check' ? 0 : 1;
  if (positionals.length !== expected) throw new CliError(`usage: npm run admin -- ${MAINTENANCE[name]!.usage}`);
  if (!existsSync(dataDir)) throw new CliError(`data folder ${dataDir} does not exist`);
  try {
    if (name === 'check') {
      const report = checkRegistryFile(dataDir);
      printJson(report);
      if (!report.ok) process.exitCode = 1;
    } else if (name === 'backup') printJson(await backupRegistry(dataDir, positionals[0]!));
    else printJson(await restoreRegistry(dataDir, positionals[0]!));
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

function buildInput(spec: CommandSpec, args: string[]): { dataDir?: string; database?: string; input: Record<string, unknown> } {
  const flags = flagsOf(spec);
  const booleans = new Set([...flags].filter(([, f]) => f.kind === 'boolean').map(([name]) => name));
  const options = Object.fromEntries([...flags.keys(), ...Object.keys(GLOBAL_FLAGS)].map((name) => [name, { type: 'string' as const }]));
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: expandBareBooleans(args, booleans), options, strict: true, allowPositionals: false }) as {
      values: Record<string, string | undefined>;
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}. See: npm run admin -- help <command>`);
  }
  const { data: dataDir, database } = values;
  if (dataDir !== undefined && database !== undefined) throw new CliError('--data (SQLite) and --database (PostgreSQL): give one of them');
  if (!dataDir && !database) throw new CliError('--data <dir> (the registry data folder) or --database <postgres URL> is required');
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) {
    throw new CliError('--database: a PostgreSQL URL, postgres://user@host:port/database');
  }
  if (values.json !== undefined && values.file !== undefined) throw new CliError('give --json or --file, not both');

  const whole = values.json ?? values.file;
  let input: Record<string, unknown> = {};
  if (whole !== undefined) {
    const parsed = parseJson(readTextInput(whole, '--json'), '--json');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CliError('--json: must hold a JSON object');
    input = { ...(parsed as Record<string, unknown>) };
  }
  for (const [name, flag] of flags) {
    const raw = values[name];
    if (raw === undefined) continue;
    input[flag.field] = flag.kind === 'file' ? readTextInput(raw, `--${name}`) : coerceFlag(flag.kind, raw, name);
  }
  return { ...(dataDir ? { dataDir } : {}), ...(database ? { database } : {}), input: { ...input, ...spec.fixed } };
}

/** The audit log's actor for CLI runs: the CLI and the OS user who ran it. */
function cliActor(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  return `cli:${user}`;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${usage(args[0])}\n`);
    return;
  }
  if (name in MAINTENANCE) return runMaintenance(name, args);
  const spec = COMMANDS[name];
  if (!spec) throw new CliError(`unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
  if (args.includes('--help')) {
    process.stdout.write(`${usage(name)}\n`);
    return;
  }
  const { dataDir, database, input } = buildInput(spec, args);
  // a mistyped --data must not leave a new empty registry behind
  if (dataDir !== undefined && !spec.startsRegistry && !existsSync(dataDir)) {
    throw new CliError(`data folder ${dataDir} does not exist (create-organization or seed-demo start a new registry)`);
  }
  const inspecting = spec.inspecting === true;
  const registry =
    database !== undefined ? openPostgresRegistry({ databaseUrl: database, inspecting }) : openRegistry({ dataDir: dataDir!, inspecting });
  try {
    const run = () => spec.run(registry, input, { dataDir: dataDir ?? '.' });
    printJson(spec.action ? audited(registry, { operatorId: null, actor: cliActor(), action: spec.action, input }, run) : run());
  } finally {
    registry.close();
  }
}

main(process.argv.slice(2)).catch(fail);
