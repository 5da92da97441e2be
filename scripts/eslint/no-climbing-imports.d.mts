// Types of scripts/eslint/no-climbing-imports.mjs.
import type { ESLint, Rule } from 'eslint';
export const noClimbingImports: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
