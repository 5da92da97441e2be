// The desk API's connections.* methods (shared/desk/api.ts).
import type { MethodGroup, ServiceContext } from './context';

/** connections.*: the connection manager's, with the key handles resolved to the keys they name. */
export function connectionMethods(ctx: ServiceContext): MethodGroup<'connections'> {
  const { connections, keyImports } = ctx;
  return {
    'connections.list': () => connections.list(),
    'connections.addRemote': async ({ keyHandle, operator, ...input }) => {
      const added = await connections.addRemote({
        ...input,
        privateKeyPem: keyImports.get(keyHandle),
        ...(operator ? { operator: { id: operator.id, privateKeyPem: keyImports.get(operator.keyHandle, operator.id) } } : {}),
      });
      keyImports.release(keyHandle);
      if (operator) keyImports.release(operator.keyHandle);
      return added;
    },
    'connections.activate': (input) => connections.activate(input),
    'connections.remove': (input) => connections.remove(input),
    'connections.reimportKey': async ({ keyHandle, ...input }) => {
      const changed = await connections.reimportKey({ ...input, privateKeyPem: keyImports.get(keyHandle) });
      keyImports.release(keyHandle);
      return changed;
    },
    'connections.unlock': (input) => connections.unlock(input),
    'connections.refreshInstallations': (input) => connections.refreshInstallations(input),
    'connections.logKey': (input) => connections.logKey(input),
    'connections.startOver': (input) => connections.startOver(input),
  };
}
