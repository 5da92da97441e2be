// After `npm install`: did every native addon the app needs get compiled? npm runs a dependency's
// install script only where package.json's allowScripts approves it (a stricter npm skips the rest
// silently), and an addon whose script never ran installs fine but fails on first use. setup
// checks here and fails naming the package. Node built-ins only: setup runs it right after npm.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each addon package, its compiled binary, and whether the app cannot do without it. */
export const NATIVE_ADDONS = [
  { name: 'better-sqlite3', binary: 'build/Release/better_sqlite3.node', required: true },
  // Optional dependencies: npm leaves them out where they cannot compile (no libsecret or libpq
  // headers), which is fine; installed but not compiled means their script was skipped.
  { name: 'keytar', binary: 'build/Release/keytar.node', required: false },
  { name: 'libpq', binary: 'build/Release/addon.node', required: false },
];

/** One sentence per addon that is needed (or installed) but was not built; empty when all are. */
export function unbuiltAddons(root) {
  const approvals = readAllowScripts(root);
  const problems = [];
  for (const { name, binary, required } of NATIVE_ADDONS) {
    const dir = join(root, 'node_modules', name);
    const installed = existsSync(join(dir, 'package.json'));
    if (!installed && !required) continue;
    if (installed && existsSync(join(dir, binary))) continue;
    const approval = approvals[name] === true ? 'approved in allowScripts' : 'NOT approved in package.json allowScripts';
    problems.push(
      installed
        ? `${name} is installed but its native addon (${binary}) was not built: its install script did not run or failed (${approval}; run \`npm rebuild ${name}\` and read its output)`
        : `${name} is not installed (run npm install and read its output)`,
    );
  }
  return problems;
}

function readAllowScripts(root) {
  try {
    return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).allowScripts ?? {};
  } catch {
    return {};
  }
}
