// Work the registry does on its own while it serves (the warehouse transaction worker, token
// housekeeping). Each service starts with the server and stops before the database closes.
import type { RegistryContext } from './context';
import { tokenHousekeeping } from '../auth/tokens';
import { warehouseTransactionWorker } from './warehouse/worker';

export interface BackgroundService {
  name: string;
  start(ctx: RegistryContext): { stop(): Promise<void> | void };
}

/** Every background service, in start order. */
export const backgroundServices: BackgroundService[] = [tokenHousekeeping, warehouseTransactionWorker];

export interface BackgroundServices {
  stop(): Promise<void>;
}

export function startBackgroundServices(
  ctx: RegistryContext,
  services: readonly BackgroundService[] = backgroundServices,
): BackgroundServices {
  const running = services.map((s) => s.start(ctx));
  return {
    async stop() {
      for (const r of running.reverse()) await r.stop();
    },
  };
}
