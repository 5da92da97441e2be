// Types of scripts/built-addons.mjs.
export const NATIVE_ADDONS: { name: string; binary: string; required: boolean }[];
export function unbuiltAddons(root: string): string[];
