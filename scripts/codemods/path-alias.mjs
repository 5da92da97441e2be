// Rewrites every relative import that climbs two or more folders (`../../x`) into its path alias
// (scripts/path-aliases.mjs): `node scripts/codemods/path-alias.mjs [--check] [files…]`.
// Re-runnable: it rewrites only what is still relative, so running it after a merge brings new code
// in line, and a second run changes nothing. With no files it takes the repository's tracked
// TypeScript files (plain-Node .mjs/.js files keep their relative imports: Node knows no aliases).
// --check lists what it would rewrite and exits 1 if anything is left (the ESLint rule
// local/no-climbing-imports says the same file by file).
// It reads the syntax tree, not text: module specifiers of import/export declarations, import(),
// import types (`import('x').T`), require() and vi.mock/doMock/importActual/importMock. A URL
// (`new URL('../../x', import.meta.url)`) is a file path, not an import, and is left alone.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';
import { aliasedSpecifier, climbsTwoOrMore } from '../path-aliases.mjs';

const root = resolve(import.meta.dirname, '../..');
const TYPESCRIPT = /\.(ts|tsx|mts|cts)$/;
const CALLS = new Set(['require', 'vi.mock', 'vi.doMock', 'vi.importActual', 'vi.importMock', 'vi.unmock', 'vi.doUnmock']);

/** The string literals in `source` that name a module. */
function moduleSpecifiers(sourceFile) {
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal);
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression.kind === ts.SyntaxKind.ImportKeyword ? 'import' : node.expression.getText(sourceFile);
      if (callee === 'import' || CALLS.has(callee)) found.push(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** `text` of `file` with its climbing imports aliased, and how many it rewrote. */
export function rewrite(file, text) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edits = [];
  for (const literal of moduleSpecifiers(sourceFile)) {
    if (!climbsTwoOrMore(literal.text)) continue;
    const aliased = aliasedSpecifier(resolve(dirname(file), literal.text), root);
    if (aliased) edits.push({ start: literal.getStart(sourceFile) + 1, end: literal.getEnd() - 1, text: aliased });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out, count: edits.length };
}

function trackedTypeScript() {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  return listed.filter((file) => TYPESCRIPT.test(file) && !file.endsWith('.d.mts')).map((file) => resolve(root, file));
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const named = args.filter((arg) => arg !== '--check').map((file) => resolve(file));
  let files = 0;
  let imports = 0;
  for (const file of named.length > 0 ? named : trackedTypeScript()) {
    const text = readFileSync(file, 'utf8');
    const result = rewrite(file, text);
    if (result.count === 0) continue;
    files += 1;
    imports += result.count;
    if (check) console.log(`${file}: ${result.count} climbing import(s)`);
    // Shorter specifiers can let Prettier join lines it had wrapped: the file is formatted as
    // `npm run lint` checks it.
    else writeFileSync(file, await prettier.format(result.text, { ...(await prettier.resolveConfig(file)), filepath: file }));
  }
  console.log(`${check ? 'would rewrite' : 'rewrote'} ${imports} import(s) in ${files} file(s)`);
  if (check && imports > 0) process.exitCode = 1;
}
