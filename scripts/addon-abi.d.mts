// Types of scripts/addon-abi.mjs.
export type AddonAbi = { kind: 'napi' } | { kind: 'abi'; abi: number } | { kind: 'unknown' };
export function addonAbi(binary: Buffer): AddonAbi;
export function electronAbi(root: string): number;
export function whyNotForElectron(file: string, abi: number): string | undefined;
