// The house rules ESLint holds on size and SQL (eslint.config.js, houseRules): files of at most 300
// lines, functions of at most 120, statements prepared only in the db seam. The files that broke
// them when they came in are listed in eslint.allowlist.json, and that list may only shrink: each
// listed file must still break its rule (or it is to be removed from the list), and the list never
// grows. Each rule is also shown to fire where it should and not where it should not.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
type Rule = 'max-lines' | 'max-lines-per-function' | 'prepare';
const allowlist = JSON.parse(readFileSync(resolve(root, 'eslint.allowlist.json'), 'utf8')) as Record<Rule, string[]>;

/** How many files each list held when the rules came in (issue 27); only ever lowered. */
const AT_MOST: Record<Rule, number> = { 'max-lines': 1, 'max-lines-per-function': 3, prepare: 0 };
const RULE_ID: Record<Rule, string> = {
  'max-lines': 'max-lines',
  'max-lines-per-function': 'max-lines-per-function',
  prepare: 'no-restricted-syntax',
};

// The real config says which rule applies where, and with which options; a linter running only that
// rule then reads the files (the whole config, with type information, would take minutes here).
const real = new ESLint({ cwd: root });

type RuleSetting = Linter.RuleEntry | undefined;
async function settingAt(rule: Rule, relativePath: string): Promise<RuleSetting> {
  const config = (await real.calculateConfigForFile(resolve(root, relativePath))) as { rules?: Record<string, RuleSetting> };
  const setting = config.rules?.[RULE_ID[rule]];
  if (setting === undefined) return undefined;
  const severity = Array.isArray(setting) ? setting[0] : setting;
  return severity === 0 || severity === 'off' ? undefined : setting;
}

const linters = new Map<string, ESLint>();

/** How many times `rule`, set as the real config sets it at `settingPath`, fires on `code`. */
async function fired(rule: Rule, settingPath: string, code: string, filePath = settingPath): Promise<number> {
  const setting = await settingAt(rule, settingPath);
  if (!setting) return 0;
  const key = JSON.stringify([RULE_ID[rule], setting]);
  const linter =
    linters.get(key) ??
    new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['**/*.{ts,tsx,js,mjs,cjs}'], languageOptions: { parser: tseslint.parser }, rules: { [RULE_ID[rule]]: setting } },
      ],
    });
  linters.set(key, linter);
  const [result] = await linter.lintText(code, { filePath: resolve(root, filePath) });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === RULE_ID[rule]).length;
}

/** A path where the rule applies as it would to a listed file if it were not listed. */
function unlistedTwin(path: string, rule: Rule): string {
  const extension = /\.[^.]+$/.exec(path)![0];
  // Size rules apply everywhere (functions: outside test/); the SQL rule to electron, shared, renderer.
  return rule === 'prepare' ? `electron/core/registry/allowlist-twin${extension}` : `scripts/allowlist-twin${extension}`;
}

const longFile = Array.from({ length: 301 }, (_, i) => `export const line${i} = ${i};`).join('\n');
const longFunction = `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(120)}  return n;\n}\n`;
const prepared = `declare const db: { prepare(sql: string): unknown };\nexport const statement = db.prepare('SELECT 1');\n`;

describe('the size and SQL rules', () => {
  it('fire on new code that breaks them, and stay quiet where it is allowed', async () => {
    expect(await fired('max-lines', 'electron/core/registry/new-module.ts', longFile)).toBe(1);
    expect(await fired('max-lines', 'electron/core/registry/new-module.ts', longFile.split('\n').slice(1).join('\n'))).toBe(0);
    expect(await fired('max-lines-per-function', 'renderer/src/screens/NewScreen.tsx', longFunction)).toBe(1);
    expect(await fired('max-lines-per-function', 'test/unit/new.test.ts', longFunction), 'test files are exempt').toBe(0);
    expect(await fired('prepare', 'electron/core/desk/new-store.ts', prepared)).toBe(1);
    expect(await fired('prepare', 'electron/core/platform/db/new-seam.ts', prepared), 'the db seam prepares').toBe(0);
    // The first call loads the real config and its plugins: seconds on a machine others share.
  }, 60_000);

  it('blank lines and comments do not count', async () => {
    const commented = longFile
      .split('\n')
      .slice(0, 290)
      .map((line) => `// why\n\n${line}`)
      .join('\n');
    expect(await fired('max-lines', 'electron/core/registry/new-module.ts', commented)).toBe(0);
  });
});

describe('eslint.allowlist.json', () => {
  it.each(Object.keys(AT_MOST) as Rule[])('%s: never grows, sorted, no duplicates, every file exists', async (rule) => {
    const list = allowlist[rule];
    for (const path of list.slice(0, 3)) expect(await settingAt(rule, path), `${path} is listed, so the rule is off there`).toBeUndefined();
    expect(list.length, `the ${rule} list may only shrink: make the new code meet the rule instead`).toBeLessThanOrEqual(AT_MOST[rule]);
    expect(list).toEqual([...new Set(list)].sort());
    for (const path of list) expect(() => readFileSync(resolve(root, path)), `${path} is listed but gone: remove it`).not.toThrow();
  });

  it('every listed file still breaks its rule', async () => {
    // One pass: each listed file parsed once, every rule it is listed for run on it as the real
    // config would run it on an unlisted file.
    const rules = Object.keys(AT_MOST) as Rule[];
    const settings = await Promise.all(rules.map((rule) => settingAt(rule, unlistedTwin('x.ts', rule))));
    const linter = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.{ts,tsx,js,mjs,cjs}'],
          languageOptions: { parser: tseslint.parser },
          rules: Object.fromEntries(rules.map((rule, i) => [RULE_ID[rule], settings[i]!])),
        },
      ],
    });
    const nowMeetsTheRule: string[] = [];
    for (const path of [...new Set(rules.flatMap((rule) => allowlist[rule]))].sort()) {
      const [result] = await linter.lintText(readFileSync(resolve(root, path), 'utf8'), { filePath: resolve(root, path) });
      for (const rule of rules) {
        if (allowlist[rule].includes(path) && !result!.messages.some((m) => m.ruleId === RULE_ID[rule]))
          nowMeetsTheRule.push(`${rule}: ${path}`);
      }
    }
    expect(nowMeetsTheRule, 'these files now meet the rule: remove them from eslint.allowlist.json and lower AT_MOST').toEqual([]);
    // About 65 files parsed: a few seconds of CPU, stretched on a machine others share.
  }, 120_000);

  it.each(Object.keys(AT_MOST) as Rule[])('%s: the figure is lowered when the list shrinks', (rule) => {
    expect(allowlist[rule].length, `lower AT_MOST['${rule}'] in this test to ${allowlist[rule].length}`).toBe(AT_MOST[rule]);
  });
});
