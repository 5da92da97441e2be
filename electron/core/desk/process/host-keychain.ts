// The OS keychain as the service process sees it when the host drives it (Electron's main process
// keeps what works there): each operation is a `keychain` message to the host, settled by its
// `keychain.reply` (service-side.ts hands those here).
import { KeyReadError, type KeyVault } from '@desk/key-vault';
import type { HostToService, KeychainOp, ServiceToHost } from './protocol';

type KeychainReply = Extract<HostToService, { type: 'keychain.reply' }>;

export function hostKeychain(send: (message: ServiceToHost) => void) {
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;

  function ask(request: KeychainOp): Promise<unknown> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject });
      send({ type: 'keychain', id, request });
    });
  }

  const vault: KeyVault = {
    kind: 'keychain',
    async readPrivateKey(connectionId) {
      const pem = await ask({ op: 'read', connectionId });
      if (typeof pem !== 'string') throw new KeyReadError('unreadable', 'the keychain answered something that is not a key');
      return pem;
    },
    async importPrivateKey(connectionId, pem) {
      await ask({ op: 'import', connectionId, pem });
    },
    async deletePrivateKey(connectionId) {
      await ask({ op: 'delete', connectionId });
    },
  };

  /** Settles the call the host answered (an answer to no call is dropped). */
  function answered(message: KeychainReply): void {
    const call = calls.get(message.id);
    calls.delete(message.id);
    if (!call) return;
    if (message.ok) call.resolve(message.value);
    else {
      const error = message.error ?? { message: 'the keychain failed' };
      call.reject(error.reason ? new KeyReadError(error.reason, error.message) : new Error(error.message));
    }
  }

  return { ask, vault, answered };
}
