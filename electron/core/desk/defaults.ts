// The real collaborators of the desk service, in one place for both hosts: the demo seed and the
// secret stores. Tests pass their own where they need to (a memory vault, a stopped registry).
import { seedDemo } from '../registry';
import type { DemoSeeder } from './embedded';
import type { KeychainAvailability, SecretStoreFactory } from './key-vault';
import { keychainAvailability, openSecretStore } from './secret-stores';

export interface DeskDefaults {
  seedDemo: DemoSeeder;
  secretStoreFactory?: SecretStoreFactory;
  probeKeychain?: () => Promise<KeychainAvailability>;
}

export function deskDefaults(): DeskDefaults {
  return {
    seedDemo: (registry, options) => {
      seedDemo(registry, options);
    },
    secretStoreFactory: openSecretStore,
    probeKeychain: keychainAvailability,
  };
}
