// The standalone auditor: `npm run verify -- <registry url> [--key <verifier key>] [--state <file>]`.
// Reads only the registry's public transparency endpoints (no database, no token): checks the
// checkpoint's signature under the pinned key (--key, else the one kept in --state, else the one
// served, which is then pinned), its consistency with the checkpoint kept in --state by the last
// run, replays every leaf to the signed root, and spot-checks inclusion proofs. Exit 0 with a JSON
// summary, or 1 with {"error": …} saying what failed.
import { parseArgs } from 'node:util';
import { LogVerificationError } from '@shared/transparency/verifier';
import { verifyRegistryLog } from '../transparency/remote-verify';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { key: { type: 'string' }, state: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help || positionals.length !== 1) {
    process.stdout.write('npm run verify -- <registry url> [--key <name+hash+key>] [--state <file>]\n');
    process.exit(values.help ? 0 : 1);
  }
  const result = await verifyRegistryLog({
    url: positionals[0]!,
    ...(values.key ? { key: values.key } : {}),
    ...(values.state ? { state: values.state } : {}),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((error: unknown) => {
  const kind = error instanceof LogVerificationError ? `${error.kind}: ` : '';
  process.stderr.write(`${JSON.stringify({ error: `${kind}${(error as Error).message}` })}\n`);
  process.exit(1);
});
