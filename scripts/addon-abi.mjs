// Which runtime a native addon binary can load in, read from the binary itself: a Node-API addon
// exports `napi_register_module_v1` (any Node or Electron), a classic (NAN) addon exports
// `node_register_module_v<ABI>`, the NODE_MODULE_VERSION it was compiled against (Node 20: 115;
// each Electron major has its own, recorded in node_modules/electron/abi_version). The symbol names
// are plain strings in ELF, Mach-O and PE files alike, so no object-file parser is needed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @typedef {{ kind: 'napi' } | { kind: 'abi', abi: number } | { kind: 'unknown' }} AddonAbi */

/** @returns {AddonAbi} */
export function addonAbi(binary) {
  const text = binary.toString('latin1');
  const classic = /node_register_module_v(\d+)/.exec(text);
  if (classic) return { kind: 'abi', abi: Number(classic[1]) };
  if (text.includes('napi_register_module_v1')) return { kind: 'napi' };
  return { kind: 'unknown' };
}

/** The NODE_MODULE_VERSION of the installed electron package (its abi_version file). */
export function electronAbi(root) {
  return Number(readFileSync(join(root, 'node_modules', 'electron', 'abi_version'), 'utf8').trim());
}

/** Why the addon at `file` cannot load in an Electron of module version `abi`, or undefined when it can. */
export function whyNotForElectron(file, abi) {
  const found = addonAbi(readFileSync(file));
  if (found.kind === 'napi') return undefined;
  if (found.kind === 'abi' && found.abi === abi) return undefined;
  const built = found.kind === 'abi' ? `module version ${found.abi}` : 'an unknown runtime';
  return `${file} is built for ${built}, not Electron's ${abi}`;
}
