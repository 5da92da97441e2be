// ESLint rule local/no-climbing-imports: an import that climbs two or more folders (`../../x`) into a
// folder with an alias (scripts/path-aliases.mjs) must use the alias. It fixes what it reports, the
// same rewrite as scripts/codemods/path-alias.mjs. One folder up (`../x`) is a neighbour and stays.
import { dirname, resolve } from 'node:path';
import { aliasedSpecifier, climbsTwoOrMore } from '../path-aliases.mjs';

const root = resolve(import.meta.dirname, '../..');

/** @type {import('eslint').Rule.RuleModule} */
export const noClimbingImports = {
  meta: {
    type: 'suggestion',
    fixable: 'code',
    docs: { description: 'Imports that climb two or more folders use the path alias of the room they reach.' },
    messages: { climbing: "'{{specifier}}' climbs {{levels}} folders: import '{{aliased}}' (the path alias of that room)." },
    schema: [],
  },
  create(context) {
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !climbsTwoOrMore(source.value)) return;
      const aliased = aliasedSpecifier(resolve(dirname(context.filename), source.value), root);
      if (!aliased) return;
      const levels = source.value.match(/\.\.\//g).length;
      const quote = source.raw[0];
      context.report({
        node: source,
        messageId: 'climbing',
        data: { specifier: source.value, levels, aliased },
        fix: (fixer) => fixer.replaceText(source, `${quote}${aliased}${quote}`),
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // (`source` since typescript-eslint 8.x; `argument` before, a TSLiteralType)
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
      CallExpression: (node) => {
        const callee = node.callee;
        const named =
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'vi' &&
          callee.property.type === 'Identifier'
            ? `vi.${callee.property.name}`
            : callee.type === 'Identifier'
              ? callee.name
              : '';
        if (/^(require|vi\.(mock|doMock|unmock|doUnmock|importActual|importMock))$/.test(named)) check(node.arguments[0]);
      },
    };
  },
};

/** The plugin eslint.config.js registers as `local`. */
export default { rules: { 'no-climbing-imports': noClimbingImports } };
