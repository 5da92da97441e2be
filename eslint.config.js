// @ts-check
// `npm run lint` runs this config (with Prettier's check and the commit-message check). Two layers:
// the architecture of README's "How it is built" as import rules, and typescript-eslint's
// type-checked rules, which catch promises nobody awaits, `any` leaking through, and the like.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SLEEP_MESSAGE = 'No wall-clock sleeps in tests: move the injected clock (electron/core/clock.ts) or wait for the event.';
const CORE_MESSAGE = 'electron/core never imports Electron: it runs and is tested under plain Node.';

/**
 * Who may import whom. A rule here fails `npm run lint` on the file that crosses the line; each is
 * proven by test/guardrails/lint-boundaries.test.ts, which lints a violating snippet with this config.
 */
const architecture = defineConfig(
  {
    name: 'architecture/imports',
    plugins: { 'import-x': importX },
    settings: {
      // Imports name .ts/.tsx files without an extension (moduleResolution "bundler"); the cycle
      // rule reads the files it reaches with the TypeScript parser.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
    },
    rules: {
      // Type-only imports are erased at build time and are not followed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './electron/core',
              from: ['./electron/main', './electron/preload', './renderer'],
              message: CORE_MESSAGE,
            },
            {
              target: './electron/core/registry',
              from: ['./electron/core/http', './electron/core/desk', './electron/core/web-host'],
              message: 'The registry is the bottom layer: HTTP, the desk and the web host build on it, never the reverse.',
            },
            {
              target: './renderer',
              from: ['./electron'],
              message: 'The renderer reaches the desk only through the bridge (shared/desk/api.ts), never electron/*.',
            },
            {
              target: './electron/main',
              from: ['./renderer'],
              message: 'The Electron shell serves the renderer; it does not import it.',
            },
            {
              target: './electron/preload',
              from: ['./renderer', './electron/main', './electron/core'],
              message: 'The sandboxed preload may import only electron and shared/ (its bundle must stay tiny).',
            },
            {
              target: './shared',
              from: ['./electron', './renderer'],
              message: 'shared/ is the contract both sides import; it imports neither side.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'architecture/core-without-electron',
    files: ['electron/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: CORE_MESSAGE }], patterns: [{ regex: '^electron/', message: CORE_MESSAGE }] },
      ],
    },
  },
  {
    name: 'architecture/renderer-without-node',
    files: ['renderer/**'],
    rules: {
      // node:* and bare builtins alike: the renderer runs sandboxed in a browser page.
      'import-x/no-nodejs-modules': 'error',
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
    // Files that break the rules on purpose, linted only by the test that proves the rules.
    'test/guardrails/fixtures/',
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
  architecture,
  prettier,
);
