// `npm run setup` on a machine without libsecret's headers (issue 11, item 15): keytar is an optional
// dependency, so npm leaves it out and the install succeeds; setup's decision, as data, is whether to
// print the one sentence saying the keychain is unavailable and what to install.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keychainSetupNotice, keytarBuildNeeds, keytarMissingSentence } from '@desk/secrets/keychain-install.mjs';

describe('setup and a keytar that could not be built', () => {
  it.each([
    { platform: 'linux', installed: true, built: true, notice: undefined },
    { platform: 'darwin', installed: true, built: true, notice: undefined },
    { platform: 'linux', installed: false, built: false, notice: /libsecret-1-dev.*libsecret-devel/ },
    { platform: 'linux', installed: true, built: false, notice: /libsecret-1-dev/ },
    { platform: 'darwin', installed: false, built: false, notice: /xcode-select --install/ },
    { platform: 'win32', installed: false, built: false, notice: /Visual Studio Build Tools/ },
  ])('$platform, installed $installed, built $built', ({ notice, ...state }) => {
    const line = keychainSetupNotice(state);
    if (notice === undefined) expect(line).toBeUndefined();
    else {
      expect(line).toMatch(notice);
      expect(line).toBe(`setup: ${keytarMissingSentence(state.platform)}`);
    }
  });

  it('says it in one sentence: unavailable, why, what to install, and that the encrypted file serves', () => {
    const sentence = keytarMissingSentence('linux');
    expect(sentence).toMatch(/^The OS keychain is unavailable because/);
    expect(sentence).toContain(keytarBuildNeeds('linux'));
    expect(sentence).toMatch(/npm run setup again.*passphrase-encrypted file\.$/);
    expect(sentence.slice(0, -1)).not.toMatch(/\.\s/);
  });

  it('keytar is an optional dependency, so a failed build does not fail the install', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    expect(pkg.optionalDependencies?.keytar).toBeDefined();
    expect(pkg.dependencies.keytar).toBeUndefined();
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { optional?: boolean }> };
    expect(lock.packages['node_modules/keytar']?.optional).toBe(true);
  });
});
