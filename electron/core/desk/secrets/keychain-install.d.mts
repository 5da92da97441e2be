// Types of electron/core/desk/secrets/keychain-install.mjs (plain JavaScript: `npm run setup` runs it
// before anything is compiled).

/** What a machine needs to build keytar, by platform (`process.platform`). */
export function keytarBuildNeeds(platform: string): string;

/** The one sentence: the keychain is unavailable, why, what to install, and what serves meanwhile. */
export function keytarMissingSentence(platform: string): string;

/** setup's decision after the install: the line to print, or undefined when keytar is installed and built. */
export function keychainSetupNotice(state: { platform: string; installed: boolean; built: boolean }): string | undefined;
