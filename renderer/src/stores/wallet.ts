// The wallet the user opened for signing finalizations. The key itself stays in the wallet worker
// (in memory, for this session); this store knows only the address and whether an encrypted
// keystore is kept. Kept (only when the user asks) = a keystore the worker re-encrypted with the
// desk's own scrypt settings, in sessionStorage: never a raw key, never localStorage, never the
// imported file as it was.
import { create } from 'zustand';
import type { FinalizeFields } from '../wallet/signedMessage';
import { walletRequest } from '../wallet/walletClient';

const SESSION_KEY = 'registryDesk.walletKeystore';

interface WalletState {
  address: string | null;
  /** Progress of a keystore decryption or encryption (0..1), null when idle. */
  progress: number | null;
  rememberedKeystore: string | null;
  unlockKeystore(keystoreJson: string, password: string, remember: boolean): Promise<void>;
  importPrivateKey(privateKey: string, remember: { password: string } | null): Promise<void>;
  /** Signs the finalization message of `fields`; the worker builds and returns the exact text. */
  signFinalization(fields: FinalizeFields): Promise<{ signer: string; signature: string; signedMessage: string }>;
  forget(): Promise<void>;
}

function readRemembered(): string | null {
  try {
    return sessionStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/** The address a keystore says it holds (no password needed), for "remembered wallet 0x…". */
export function keystoreAddress(keystoreJson: string | null): string | null {
  if (!keystoreJson) return null;
  try {
    const address = (JSON.parse(keystoreJson) as { address?: unknown }).address;
    return typeof address === 'string' ? (address.startsWith('0x') ? address : `0x${address}`) : null;
  } catch {
    return null;
  }
}

export const useWallet = create<WalletState>()((set) => ({
  address: null,
  progress: null,
  rememberedKeystore: readRemembered(),

  unlockKeystore: async (keystoreJson, password, remember) => {
    set({ progress: 0 });
    try {
      const { address } = await walletRequest({ kind: 'unlockKeystore', keystoreJson, password }, (progress) => set({ progress }));
      if (remember) {
        // Kept re-encrypted with the desk's settings, not as the imported file was (its KDF may be weak).
        set({ progress: 0 });
        const { keystoreJson: kept } = await walletRequest({ kind: 'encryptForSession', password }, (progress) => set({ progress }));
        if (kept) sessionStorage.setItem(SESSION_KEY, kept);
      }
      // The wallet shows as open once it is also kept, when that was asked.
      set({ address, rememberedKeystore: readRemembered() });
    } finally {
      set({ progress: null });
    }
  },

  importPrivateKey: async (privateKey, remember) => {
    const { address } = await walletRequest({ kind: 'importPrivateKey', privateKey });
    set({ address });
    if (remember) {
      set({ progress: 0 });
      try {
        const { keystoreJson } = await walletRequest({ kind: 'encryptForSession', password: remember.password }, (progress) =>
          set({ progress }),
        );
        if (keystoreJson) {
          sessionStorage.setItem(SESSION_KEY, keystoreJson);
          set({ rememberedKeystore: keystoreJson });
        }
      } finally {
        set({ progress: null });
      }
    }
  },

  signFinalization: async (fields) => {
    const { address, signature, signedMessage } = await walletRequest({ kind: 'signFinalization', fields });
    if (!address || !signature || signedMessage === undefined) throw new Error('The wallet did not return a signature.');
    return { signer: address, signature, signedMessage };
  },

  forget: async () => {
    await walletRequest({ kind: 'forget' });
    sessionStorage.removeItem(SESSION_KEY);
    set({ address: null, rememberedKeystore: null });
  },
}));
