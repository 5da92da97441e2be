// The update manifest's signature (electron/core/desk/updates/update-signature.ts) and the feed
// the packaging publishes to.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import config from '../../../electron-builder.config.mjs';
import { channelFileFor, UPDATE_FEED_URL } from '@desk/updates/update-feed';
import { PINNED_UPDATE_KEY } from '@desk/updates/update-key';
import { checkManifestSignature, keyIdOf, signManifest } from '@desk/updates/update-signature';

const release = generateKeyPairSync('ed25519');
const pinned = release.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const manifest = Buffer.from('version: 0.2.0\npath: a.deb\nsha512: abc\n');

describe('update manifest signatures', () => {
  it('accepts exactly the signed bytes under the pinned key', () => {
    const sig = signManifest(manifest, release.privateKey);
    expect(JSON.parse(sig)).toEqual({ keyId: keyIdOf(pinned), signature: expect.any(String) });
    expect(checkManifestSignature(manifest, sig, pinned)).toEqual({ ok: true });
    expect(checkManifestSignature(Buffer.from(`${manifest.toString()} `), sig, pinned)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('tells a wrong key and a missing or malformed signature apart', () => {
    const other = generateKeyPairSync('ed25519');
    expect(checkManifestSignature(manifest, signManifest(manifest, other.privateKey), pinned)).toEqual({ ok: false, reason: 'wrong-key' });
    expect(checkManifestSignature(manifest, undefined, pinned)).toEqual({ ok: false, reason: 'unsigned' });
    expect(checkManifestSignature(manifest, 'not json', pinned)).toEqual({ ok: false, reason: 'unsigned' });
    // A signature claiming the pinned key's id but made by another key is a tampered one.
    const forged = JSON.stringify({
      keyId: keyIdOf(pinned),
      signature: (JSON.parse(signManifest(manifest, other.privateKey)) as { signature: string }).signature,
    });
    expect(checkManifestSignature(manifest, forged, pinned)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('pins an Ed25519 key, and the app checks the feed the packaging publishes to', () => {
    expect(keyIdOf(PINNED_UPDATE_KEY)).toMatch(/^[0-9a-f]{16}$/);
    expect(PINNED_UPDATE_KEY).toContain('MCowBQYDK2VwAyEA'); // the SPKI prefix of an Ed25519 key
    expect(config.publish).toEqual([{ provider: 'generic', url: UPDATE_FEED_URL }]);
    expect([channelFileFor('linux'), channelFileFor('darwin'), channelFileFor('win32')]).toEqual([
      'latest-linux.yml',
      'latest-mac.yml',
      'latest.yml',
    ]);
  });
});
