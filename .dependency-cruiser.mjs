// @ts-check
// The architecture of docs/architecture.md, as rules over the import graph. `npm run lint`
// runs it (`depcruise`); test/unit/guardrails/architecture.test.ts proves each rule fails on a fixture
// tree that breaks it. (`electron/core` never importing the `electron` package is an ESLint rule:
// see eslint.config.js.)

const CORE = '^electron/core/';

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const forbidden = [
  {
    name: 'no-import-cycles',
    comment: 'No import cycles, type-only imports included: a circle means two modules are one room, or a declaration is in the wrong one.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'core-not-on-the-shell',
    comment:
      'electron/core never imports Electron: it runs and is tested under plain Node, so not the shell, the preload or the renderer either.',
    severity: 'error',
    from: { path: CORE },
    to: { path: '^(electron/main|electron/preload|renderer)/' },
  },
  {
    name: 'platform-is-the-floor',
    comment: 'electron/core/platform (the db seam, the clock, atomic writes) serves both products and knows neither.',
    severity: 'error',
    from: { path: '^electron/core/platform/' },
    to: { path: '^electron/core/(registry|desk)/' },
  },
  {
    name: 'registry-never-imports-the-desk',
    comment: 'The registry runs headless for any client: it never imports the desk (its client, secrets, web host).',
    severity: 'error',
    from: { path: '^electron/core/registry/' },
    to: { path: '^electron/core/desk/' },
  },
  {
    name: 'desk-uses-the-registry-through-its-entry',
    comment:
      'The desk embeds a registry through electron/core/registry/index.ts alone, so what the registry keeps to itself can change without touching the desk.',
    severity: 'error',
    from: { path: '^electron/core/desk/' },
    to: { path: '^electron/core/registry/', pathNot: '^electron/core/registry/index\\.ts$' },
  },
  {
    name: 'renderer-only-through-the-bridge',
    comment: 'The renderer reaches the desk only through the bridge (shared/desk/api.ts), never electron/*.',
    severity: 'error',
    from: { path: '^renderer/' },
    to: { path: '^electron/' },
  },
  {
    name: 'renderer-without-node',
    comment: 'The renderer runs sandboxed in a browser page: no Node modules, node:* or bare builtins alike.',
    severity: 'error',
    from: { path: '^renderer/' },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'shell-does-not-import-the-renderer',
    comment: 'The Electron shell serves the renderer; it does not import it.',
    severity: 'error',
    from: { path: '^electron/main/' },
    to: { path: '^renderer/' },
  },
  {
    name: 'preload-only-shared',
    comment: 'The sandboxed preload may import only electron and shared/ (its bundle must stay tiny).',
    severity: 'error',
    from: { path: '^electron/preload/' },
    to: { path: '^(renderer|electron/main|electron/core)/' },
  },
  {
    name: 'shared-imports-neither-side',
    comment: 'shared/ is the contract both sides import; it imports neither side.',
    severity: 'error',
    from: { path: '^shared/' },
    to: { path: '^(electron|renderer)/' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: they are erased at build time, but a type circle is still two
    // modules that cannot be understood apart.
    tsPreCompilationDeps: true,
    // The import aliases (@registry/…: scripts/path-aliases.mjs) resolve through tsconfig's `paths`,
    // so the rules above see the folders an alias names.
    tsConfig: { fileName: 'tsconfig.json' },
    // Imports name .ts/.tsx files without an extension (moduleResolution "bundler").
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.d.mts', '.mts', '.mjs', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    exclude: { path: '(^|/)(node_modules|out|dist|test-results|\\.data|\\.electron-native)/' },
  },
};
