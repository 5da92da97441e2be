// A census of untyped SQL in the product's code, for the ratchet in
// test/unit/guardrails/typed-sql.test.ts. Outside the db seam (electron/core/platform/db) and the
// migrations (DDL, written once and never changed), it counts, per file:
// - raw SQL strings: a string or template literal that starts with an SQL statement's keyword and is
//   not the template of a tagged `sql` template (kysely's typed escape hatch);
// - casts of query results: `as T` applied to a statement's or a kysely query's answer (`.get()`,
//   `.all()`, `.iterate()` on a prepared statement, `.execute*()` of a builder), the types the
//   schema (registry/schema.ts, desk/cache/schema.ts) would otherwise give;
// - hand-written row types: a type or interface in electron/core whose name ends in Row, Rows or
//   Record.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface Census {
  rawSql: number;
  queryCasts: number;
  rowTypes: number;
  /** Per file, for the failure message. */
  byFile: Record<string, { rawSql: number; queryCasts: number; rowTypes: number }>;
}

const ROOTS = ['electron', 'shared', 'renderer'];
const LEFT_OUT = [/^electron\/core\/platform\/db\//, /\/migrations\//, /\.d\.ts$/];
const SQL_START =
  /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|REPLACE|PRAGMA|CREATE|DROP|ALTER|ANALYZE|VACUUM|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\s/;
const STATEMENT_METHODS = new Set(['get', 'all', 'iterate']);
const BUILDER_METHODS = new Set(['execute', 'executeTakeFirst', 'executeTakeFirstOrThrow']);
const STATEMENT_NAME = /stmt|statement|query|select/i;
const ROW_TYPE_NAME = /(Row|Rows|Record)$/;

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(root, path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** The call whose result is cast, seen through parentheses, `await` and `!`. */
function castCall(expression: ts.Expression): ts.CallExpression | null {
  let e = expression;
  while (ts.isParenthesizedExpression(e) || ts.isAwaitExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return ts.isCallExpression(e) ? e : null;
}

/** Whether `expression` is (or is built on) a call of `.prepare(…)`, or names a statement. */
function isStatement(expression: ts.Expression): boolean {
  if (ts.isCallExpression(expression)) {
    const callee = expression.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'prepare') return true;
    return ts.isPropertyAccessExpression(callee) && isStatement(callee.expression);
  }
  if (ts.isIdentifier(expression)) return STATEMENT_NAME.test(expression.text);
  if (ts.isPropertyAccessExpression(expression)) return STATEMENT_NAME.test(expression.name.text) || isStatement(expression.expression);
  if (ts.isElementAccessExpression(expression)) return isStatement(expression.expression);
  return false;
}

function isRowType(node: ts.Node): boolean {
  return (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && ROW_TYPE_NAME.test(node.name.text);
}

function isQueryResult(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return false;
  if (BUILDER_METHODS.has(callee.name.text)) return true;
  return STATEMENT_METHODS.has(callee.name.text) && isStatement(callee.expression);
}

export function countSource(text: string, path: string): { rawSql: number; queryCasts: number; rowTypes: number } {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    false,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const counts = { rawSql: 0, queryCasts: 0, rowTypes: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node)) {
      // sql`…` is the typed way; its substitutions may still hold literals worth counting.
      if (ts.isTemplateExpression(node.template)) node.template.templateSpans.forEach((span) => visit(span.expression));
      return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (SQL_START.test(node.text)) counts.rawSql++;
    } else if (ts.isTemplateExpression(node)) {
      if (SQL_START.test(node.head.text)) counts.rawSql++;
    } else if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const call = castCall(node.expression);
      if (call && isQueryResult(call)) counts.queryCasts++;
    } else if (isRowType(node) && path.startsWith('electron/core/')) {
      counts.rowTypes++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

export function takeCensus(root: string): Census {
  const census: Census = { rawSql: 0, queryCasts: 0, rowTypes: 0, byFile: {} };
  for (const path of ROOTS.flatMap((dir) => sourceFiles(root, dir))) {
    const name = relative(root, join(root, path)).split('\\').join('/');
    if (LEFT_OUT.some((pattern) => pattern.test(name))) continue;
    const counts = countSource(readFileSync(join(root, path), 'utf8'), name);
    if (counts.rawSql + counts.queryCasts + counts.rowTypes === 0) continue;
    census.byFile[name] = counts;
    census.rawSql += counts.rawSql;
    census.queryCasts += counts.queryCasts;
    census.rowTypes += counts.rowTypes;
  }
  return census;
}
