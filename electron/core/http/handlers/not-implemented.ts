import type { EndpointId } from '../../../../shared/registry/endpoints';
import type { Handler } from '../types';

/** Placeholder for a handler still being built; answers 500 so no test can pass through it. */
export const notImplemented =
  <K extends EndpointId>(id: K): Handler<K> =>
  () => {
    throw new Error(`${id} is not implemented yet`);
  };
