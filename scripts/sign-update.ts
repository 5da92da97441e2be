// Release signing for updates (docs/operations.md, "Packaging and releases").
//   tsx scripts/sign-update.ts keygen <private-key.pem>   a new Ed25519 release key; prints the
//       public half to paste into electron/core/desk/updates/update-key.ts (keep the private offline)
//   tsx scripts/sign-update.ts sign <private-key.pem> <dist/latest-linux.yml>...   writes <file>.sig
// The app refuses any update whose manifest is not signed by the key it pins.
import { generateKeyPairSync, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { signManifest, keyIdOf } from '../electron/core/desk/updates/update-signature';

const [command, keyFile, ...manifests] = process.argv.slice(2);
if (command === 'keygen' && keyFile) {
  if (existsSync(keyFile)) throw new Error(`${keyFile} exists: refusing to overwrite a release key`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  console.log(`release key ${keyIdOf(pem)} written to ${keyFile}; pin this public key:\n${pem}`);
} else if (command === 'sign' && keyFile && manifests.length > 0) {
  const key = createPrivateKey(readFileSync(keyFile));
  for (const manifest of manifests) {
    writeFileSync(`${manifest}.sig`, signManifest(readFileSync(manifest), key));
    console.log(`signed ${manifest} -> ${manifest}.sig`);
  }
} else {
  console.error('usage: tsx scripts/sign-update.ts keygen <private-key.pem> | sign <private-key.pem> <latest*.yml>...');
  process.exit(2);
}
