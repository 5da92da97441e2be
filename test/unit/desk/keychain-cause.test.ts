// The keychain's cause is said once: the probe's reason is already a sentence naming the missing
// keychain and why ("No OS keychain is available (no D-Bus session…)"); messages built on it add
// what to do, never wrap it in a second "no keychain (…)".
import { describe, expect, it } from 'vitest';
import { explainKeychainFailure, keychainCause } from '@desk/secrets/keychain-messages';

const count = (text: string, part: RegExp) => text.match(new RegExp(part.source, 'gi'))?.length ?? 0;

describe('keychainCause', () => {
  it('is the probe reason itself, a sentence, naming the missing keychain once', () => {
    const reason = explainKeychainFailure(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'));
    const cause = keychainCause(reason);
    expect(cause).toBe(reason);
    expect(count(`${cause} Confirm storing the key in a passphrase-encrypted file.`, /keychain is available/)).toBe(1);
    expect(count(cause, /D-Bus session/)).toBe(1);
  });

  it('ends every reason with one full stop and has a plain default', () => {
    expect(keychainCause('The OS keychain reported an error: boom')).toBe('The OS keychain reported an error: boom.');
    expect(keychainCause(undefined)).toBe('No OS keychain is available.');
    expect(keychainCause('  ')).toBe('No OS keychain is available.');
  });
});
