// The operator CLI (npm run admin) as the tests run it: each command a fresh child process of the
// bundle the integration tier's global setup builds, its JSON answer or refusal checked, and the
// registry file it wrote read straight back (row counts, balances).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'vitest';
import { z } from 'zod';
import { builtEntry } from '@scripts/build-web-desk';

export const ROOT = join(import.meta.dirname, '..', '..');
// The CLIs as bundled from the working tree by the tier's global setup (test/support/build-node-bundles.ts).
const ADMIN = builtEntry('admin');
export const SERVE = builtEntry('serve');
export const NODE_ARGS = ['--enable-source-maps'];

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function admin(args: string[], input?: string): CliResult {
  const result = spawnSync(process.execPath, [...NODE_ARGS, ADMIN, ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs an admin command that must succeed; returns its parsed JSON output. */
export function ok<T = Record<string, unknown>>(args: string[], input?: string): T {
  const result = admin(args, input);
  expect(result.stderr, `${args[0]} failed`).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as T;
}

const errorOutput = z.strictObject({ error: z.string().min(1) });

/** Runs an admin command that must fail: exit 1, nothing on stdout, {"error"} on stderr. */
export function refused(args: string[]): string {
  const result = admin(args);
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  return errorOutput.parse(JSON.parse(result.stderr)).error;
}

/**
 * Row counts of every table but the audit log and the transparency log (which logs each audit entry,
 * a refusal's included): equal before and after means nothing changed.
 */
export function rowCounts(dataDir: string): Record<string, number> {
  const db = new BetterSqlite3(join(dataDir, 'registry.sqlite'), { readonly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'audit_%' AND name NOT LIKE 'tlog_%' ORDER BY name",
      )
      .all() as {
      name: string;
    }[];
    return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n]));
  } finally {
    db.close();
  }
}

export function balance(dataDir: string, kind: string, organizationId: string | null, creditId: string): number {
  const db = new BetterSqlite3(join(dataDir, 'registry.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare(
        'SELECT b.amount FROM balances b JOIN accounts a ON a.id = b.account_id WHERE a.kind = ? AND a.organization_id IS ? AND b.credit_id = ?',
      )
      .get(kind, organizationId, creditId) as { amount: number } | undefined;
    return row?.amount ?? 0;
  } finally {
    db.close();
  }
}
