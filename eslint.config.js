// @ts-check
// `npm run lint` runs this config (with Prettier's check, dependency-cruiser's architecture rules and
// the commit-message check): typescript-eslint's type-checked rules, which catch promises nobody awaits, `any` leaking through, and the like.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import local from './scripts/eslint/no-climbing-imports.mjs';

const SLEEP_MESSAGE = 'No wall-clock sleeps in tests: move the injected clock (electron/core/platform/clock.ts) or wait for the event.';
const CORE_MESSAGE = 'electron/core never imports Electron: it runs and is tested under plain Node.';

/**
 * Who may import whom is dependency-cruiser's job (.dependency-cruiser.mjs, proven by
 * test/unit/guardrails/architecture.test.ts); ESLint keeps the one rule about a package name, which it
 * sees without resolving anything: electron/core never imports Electron. Proven by
 * test/unit/guardrails/lint-boundaries.test.ts.
 */
const architecture = defineConfig({
  name: 'architecture/core-without-electron',
  files: ['electron/core/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      { paths: [{ name: 'electron', message: CORE_MESSAGE }], patterns: [{ regex: '^electron/', message: CORE_MESSAGE }] },
    ],
  },
});

/**
 * The files that broke a rule below when it came in; the list may only shrink
 * (test/unit/guardrails/lint-allowlist.test.ts).
 * @type {{ 'max-lines': string[], 'max-lines-per-function': string[], prepare: string[] }}
 */
const allowlist = JSON.parse(readFileSync(new URL('./eslint.allowlist.json', import.meta.url), 'utf8'));

// Blank lines and comments are not counted: a comment that says why never pushes a module over.
const SIZE = { skipBlankLines: true, skipComments: true };
const PREPARE_MESSAGE =
  'SQL statements are prepared only inside the db seam (electron/core/platform/db): query through kysely, or sql<Row>`…` where kysely cannot say it.';

/** Small modules of one purpose; typed SQL only. Proven by test/unit/guardrails/lint-allowlist.test.ts. */
const houseRules = defineConfig(
  {
    name: 'size/files',
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: allowlist['max-lines'],
    rules: { 'max-lines': ['error', { max: 300, ...SIZE }] },
  },
  {
    name: 'size/functions',
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    // A test file's describe block is a list of cases, not a function to split.
    ignores: ['test/**', ...allowlist['max-lines-per-function']],
    rules: { 'max-lines-per-function': ['error', { max: 120, ...SIZE, IIFEs: true }] },
  },
  {
    name: 'sql/prepare-only-in-the-db-seam',
    files: ['electron/**', 'shared/**', 'renderer/**'],
    ignores: ['electron/core/platform/db/**', ...allowlist.prepare],
    rules: {
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='prepare']", message: PREPARE_MESSAGE }],
    },
  },
);

export default defineConfig(
  globalIgnores([
    'out/',
    'dist/',
    'coverage/',
    'test-results/',
    'playwright-report/',
    '.data/',
    '.electron-native/',
    'bench/.results/',
    'bench/.data/',
    'resources/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    name: 'linter-options',
    // A disable comment that silences nothing is stale: it fails, like any other problem.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    name: 'typed-linting',
    languageOptions: {
      // Each file is checked with the tsconfig.<runtime>.json that holds it (see tsconfig.json).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    name: 'renderer/react-hooks',
    files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    name: 'rules',
    rules: {
      // Real bugs the recommended set leaves on the table.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Off: this code builds objects of closures (services, stores, stubs) and declares their
      // members as methods in the types; the rule cannot tell those from class methods that need
      // `this`, and every destructured callback was a false positive.
      '@typescript-eslint/unbound-method': 'off',
      // Off: an async function without `await` is how a Promise-returning interface is met here
      // (memory stores, key loaders, test stubs), and `async` turns a throw into a rejection. The
      // promise rules (no-floating-promises, no-misused-promises, await-thenable) catch the bugs.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A `let` assigned once after a closure that reads it (a server's own handle) cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Off: the patterns here that name control characters look for them on purpose (key names,
      // file names); the rule is for ones typed by accident.
      'no-control-regex': 'off',
    },
  },
  {
    name: 'renderer/react-hooks-without-compiler',
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      // Off: it only says that the React Compiler would skip a component (TanStack Virtual's
      // hooks); the build does not use the compiler.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    name: 'tests',
    files: ['test/**'],
    rules: {
      // Off in tests only: vitest types its asymmetric matchers (expect.any, expect.stringMatching,
      // …) as `any` so they fit any expected shape, and every assignment flagged in tests was one.
      // Member access, calls and arguments of `any` are still checked there.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // No wall-clock sleeps: tests move the injected clock or wait for the event.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='setTimeout'][arguments.0.type='Identifier']", message: SLEEP_MESSAGE },
      ],
      'no-restricted-properties': ['error', { property: 'waitForTimeout', message: SLEEP_MESSAGE }],
      'no-restricted-imports': [
        'error',
        {
          paths: ['timers/promises', 'node:timers/promises'].map((name) => ({ name, importNames: ['setTimeout'], message: SLEEP_MESSAGE })),
        },
      ],
    },
  },
  {
    name: 'playwright-fixtures',
    files: ['test/e2e/**'],
    // Playwright reads a fixture's dependencies from its destructured first parameter: `({}, use)`.
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    name: 'javascript-files',
    // The few .js/.mjs files (scripts, the tsx bootstrap, this config) are in no TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // An import that climbs two or more folders uses the alias of the room it reaches
    // (scripts/path-aliases.mjs; scripts/codemods/path-alias.mjs rewrites them all).
    name: 'imports/path-aliases',
    files: ['**/*.{ts,tsx,mts,cts}'],
    plugins: { local },
    rules: { 'local/no-climbing-imports': 'error' },
  },
  architecture,
  houseRules,
  prettier,
);
