// What to say when keytar (the OS keychain's native module) is not there: keytar is an optional
// dependency, so an install on a machine without libsecret's headers succeeds without it, and the
// desk keeps keys in the passphrase-encrypted file instead. One sentence, shared by `npm run setup`
// (which runs before anything is compiled, hence plain JavaScript with types in keychain-install.d.mts)
// and the desk (electron/core/desk/secrets/keytar-loader.ts).

/** What a machine needs to build keytar, by platform. */
export function keytarBuildNeeds(platform) {
  if (platform === 'linux') {
    return "libsecret's headers (Debian/Ubuntu: sudo apt install libsecret-1-dev; Fedora: sudo dnf install libsecret-devel)";
  }
  if (platform === 'darwin') return "Xcode's command line tools (xcode-select --install)";
  if (platform === 'win32') return 'the Visual Studio Build Tools with the C++ workload';
  return 'a C++ toolchain and the platform keychain library';
}

/** The one sentence: the keychain is unavailable, why, what to install, and what serves meanwhile. */
export function keytarMissingSentence(platform) {
  return (
    `The OS keychain is unavailable because its native module (keytar) was not built at install, which needs ${keytarBuildNeeds(platform)}; ` +
    'install that and run npm run setup again, and until then the desk keeps keys in a passphrase-encrypted file.'
  );
}

/**
 * setup's decision after the install, as data: `installed` (node_modules/keytar/package.json) and
 * `built` (its binary) say what npm left. Returns the line to print, or undefined when keytar is fine.
 */
export function keychainSetupNotice({ platform, installed, built }) {
  if (installed && built) return undefined;
  return `setup: ${keytarMissingSentence(platform)}`;
}
