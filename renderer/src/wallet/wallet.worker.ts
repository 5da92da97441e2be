// The wallet lives here, in a Web Worker of the renderer: keystore decryption (scrypt, seconds of
// CPU) never blocks the UI thread, and the private key never reaches the page's JavaScript at
// all: the page sends a message to sign and gets back the address and the signature.
/// <reference lib="webworker" />
import { Wallet, type HDNodeWallet } from 'ethers';
import type { WalletRequest, WalletResponse } from './protocol';

let wallet: Wallet | HDNodeWallet | null = null;

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
        const keystoreJson = await wallet.encrypt(request.password, (progress) => reply({ id: request.id, kind: 'progress', progress }));
        reply({ id: request.id, kind: 'done', address: wallet.address, keystoreJson });
        break;
      }
      case 'sign': {
        if (!wallet) throw new Error('No wallet is open');
        const signature = await wallet.signMessage(request.message);
        reply({ id: request.id, kind: 'done', address: wallet.address, signature });
        break;
      }
      case 'forget': {
        wallet = null;
        reply({ id: request.id, kind: 'done', address: null });
        break;
      }
    }
  } catch (error) {
    const fallback = request.kind === 'sign' ? 'Signing failed' : 'The wallet could not be opened';
    reply({ id: request.id, kind: 'error', message: readableError(error, fallback) });
  }
};
