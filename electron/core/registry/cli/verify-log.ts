// The standalone auditor: `npm run verify -- <registry url> [--key <verifier key>] [--state <file>]`,
// or `npm run verify -- --evidence <file> [<registry url>]` for a desk's evidence file (evidence-check.ts).
// Reads only the registry's public transparency endpoints (no database, no token): checks the
// checkpoint's signature under the pinned key (--key, else the one kept in --state, else the one
// served, which is then pinned), its consistency with the checkpoint kept in --state by the last
// run, replays every leaf to the signed root, and spot-checks inclusion proofs. Exit 0 with a JSON
// summary, or 1 with {"error": …} saying what failed.
import { parseArgs } from 'node:util';
import { LogVerificationError } from '@shared/transparency/verifier';
import { readFileSync } from 'node:fs';
import { checkEvidence } from '../transparency/evidence-check';
import { verifyRegistryLog } from '../transparency/remote-verify';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { key: { type: 'string' }, state: { type: 'string' }, evidence: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.evidence !== undefined && !values.help) {
    await evidence(values.evidence, positionals[0]);
    return;
  }
  if (values.help || positionals.length !== 1) {
    process.stdout.write(
      'npm run verify -- <registry url> [--key <name+hash+key>] [--state <file>]\nnpm run verify -- --evidence <file> [<registry url>]\n',
    );
    process.exit(values.help ? 0 : 1);
  }
  const result = await verifyRegistryLog({
    url: positionals[0]!,
    ...(values.key ? { key: values.key } : {}),
    ...(values.state ? { state: values.state } : {}),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/** Checks an evidence file; exit 1 when a finding does not hold (or the registry, given, does not verify). */
async function evidence(path: string, url: string | undefined): Promise<void> {
  const { file, ...report } = await checkEvidence(readFileSync(path, 'utf8'));
  let live: Record<string, unknown> | undefined;
  if (url !== undefined) {
    const kept =
      file.key && file.verified
        ? { key: file.key, checkpoint: { size: file.verified.entries, root: file.verified.root, note: file.verified.checkpoint } }
        : undefined;
    try {
      live = await verifyRegistryLog({ url, ...(file.key ? { key: file.key } : {}), ...(kept ? { kept } : {}) });
    } catch (error) {
      const kind = error instanceof LogVerificationError ? `${error.kind}: ` : '';
      live = { verified: false, error: `${kind}${(error as Error).message}` };
    }
  }
  process.stdout.write(`${JSON.stringify({ ...report, ...(live ? { registryNow: live } : {}) }, null, 2)}\n`);
  if (!report.holds) process.exit(1);
}

main().catch((error: unknown) => {
  const kind = error instanceof LogVerificationError ? `${error.kind}: ` : '';
  process.stderr.write(`${JSON.stringify({ error: `${kind}${(error as Error).message}` })}\n`);
  process.exit(1);
});
