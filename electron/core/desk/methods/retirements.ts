// The desk API's retirements.* methods (shared/desk/api.ts).
import { DeskFailure } from '@desk/errors';
import { demoWalletKey } from '@desk/demo-keys';
import { finalizeHints } from '@desk/finalize-hints';
import { certificateBundle } from '@desk/certificate-bundle';
import * as writes from '@desk/writes';
import type { MethodGroup, ServiceContext } from './context';
import { whenSearchable } from './searchable';

/** retirements.*: read from the cache; finalize and certificates go to the registry. */
export function retirementMethods(ctx: ServiceContext): MethodGroup<'retirements'> {
  const { cache, fresh, writeContext, connections, paths, artifacts, clock } = ctx;
  return {
    // Text searched right after a first sync waits for its search entries (searchable.ts).
    'retirements.search': async (input) => fresh(await whenSearchable(() => cache().searchRetirements(input))),
    'retirements.facets': (input) => whenSearchable(() => cache().retirementFacets(input.query, input.filters)),
    'retirements.get': (input) => {
      const found = cache().getRetirement(input.id);
      if (!found) throw new DeskFailure('not_found', `Retirement ${input.id} is not in the desk's data (it may not be synced yet)`);
      return fresh(found);
    },
    'retirements.finalize': (input) => writes.finalize(writeContext(), input),
    'retirements.finalizeHints': (input) => finalizeHints(cache(), input.retirementId),
    'retirements.walletCheck': (input) => writes.walletCheck(writeContext(), input),
    'retirements.demoWalletKey': (input) => demoWalletKey(connections.requireActive(), paths.embeddedRegistryDir, input.retirementId),
    'retirements.certificate': async (input) => {
      const pdf = await writes.certificate(writeContext(), input);
      return artifacts.put('pdf', pdf.baseName, pdf.bytes);
    },
    'retirements.certificates': async (input) => {
      const context = writeContext();
      const bundle = await certificateBundle(
        input.ids,
        input.format,
        new Date(clock.now()),
        (id) => writes.certificate(context, { id }),
        writes.certificateName,
      );
      return artifacts.put(input.format, bundle.baseName, bundle.bytes);
    },
  };
}
