// Types of scripts/path-aliases.mjs.
export const PATH_ALIASES: Record<string, string>;
export function viteAliases(root: string): Record<string, string>;
export function climbsTwoOrMore(specifier: string): boolean;
export function aliasedSpecifier(target: string, root: string): string | undefined;
