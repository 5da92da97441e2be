// The wallet lives here, in a Web Worker of the renderer: keystore decryption (scrypt, seconds of
// CPU) never blocks the UI thread, and the private key never reaches the page's state: the page
// sends the five fields of a finalization and gets back the address, the signature and the exact
// text signed. The worker signs nothing else (no arbitrary message, no transaction), and a kept
// keystore is re-encrypted with the desk's own scrypt settings, whatever the imported file used.
/// <reference lib="webworker" />
import { encryptKeystoreJson, Wallet, type HDNodeWallet } from 'ethers';
import { finalizeFieldsProblem, finalizeMessage } from './signedMessage';
import type { WalletRequest, WalletResponse } from './protocol';

let wallet: Wallet | HDNodeWallet | null = null;

/** The desk's keystore KDF: scrypt N = 2^17 (OWASP's floor, as the desk's key files), r = 8, p = 1. */
export const DESK_KEYSTORE_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;

const scope = self as unknown as DedicatedWorkerGlobalScope;

function reply(response: WalletResponse) {
  scope.postMessage(response);
}

function readableError(error: unknown, fallback: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/incorrect password|invalid password/i.test(message)) return 'The password does not open this keystore.';
  if (/invalid JSON wallet|unsupported/i.test(message)) return 'This file is not an encrypted wallet keystore (JSON, version 3).';
  if (/invalid private key|invalid BytesLike|private key/i.test(message))
    return 'That is not a valid private key: expected 64 hexadecimal characters, optionally starting with 0x.';
  return `${fallback}: ${message}`;
}

scope.onmessage = async (event: MessageEvent<WalletRequest>) => {
  const request = event.data;
  try {
    switch (request.kind) {
      case 'unlockKeystore': {
        wallet = await Wallet.fromEncryptedJson(request.keystoreJson, request.password, (progress) =>
          reply({ id: request.id, kind: 'progress', progress }),
        );
        reply({ id: request.id, kind: 'done', address: wallet.address });
        break;
      }
      case 'importPrivateKey': {
        const key = request.privateKey.trim();
        wallet = new Wallet(key.startsWith('0x') ? key : `0x${key}`);
        reply({ id: request.id, kind: 'done', address: wallet.address });
        break;
      }
      case 'encryptForSession': {
        if (!wallet) throw new Error('No wallet is open');
        // Only the encrypted keystore ever leaves the worker, and only when the user asked to keep it.
        const keystoreJson = await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, request.password, {
          scrypt: DESK_KEYSTORE_SCRYPT,
          progressCallback: (progress) => reply({ id: request.id, kind: 'progress', progress }),
        });
        reply({ id: request.id, kind: 'done', address: wallet.address, keystoreJson });
        break;
      }
      case 'signFinalization': {
        if (!wallet) throw new Error('No wallet is open');
        const problem = finalizeFieldsProblem(request.fields);
        if (problem) throw new Error(`The wallet signs only retirement finalizations: ${problem}`);
        const signedMessage = finalizeMessage(request.fields);
        const signature = await wallet.signMessage(signedMessage);
        reply({ id: request.id, kind: 'done', address: wallet.address, signature, signedMessage });
        break;
      }
      case 'forget': {
        wallet = null;
        reply({ id: request.id, kind: 'done', address: null });
        break;
      }
      default:
        // Anything else (a raw message, a transaction) is refused, never signed.
        throw new Error(`The wallet does not do "${String((request as { kind: unknown }).kind)}": it signs only retirement finalizations`);
    }
  } catch (error) {
    const fallback = request.kind === 'signFinalization' ? 'Signing failed' : 'The wallet could not be opened';
    reply({ id: request.id, kind: 'error', message: readableError(error, fallback) });
  }
};
