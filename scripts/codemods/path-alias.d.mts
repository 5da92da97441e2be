// Types of scripts/codemods/path-alias.mjs.
export function rewrite(file: string, text: string): { text: string; count: number };
