// Work the registry does on its own while it serves. Each service starts with the server and stops
// before the database closes; which services run is the server's choice (http/server.ts), so the
// registry's modules define services without knowing of each other.
import type { RegistryContext } from './context';

export interface BackgroundService {
  name: string;
  start(ctx: RegistryContext): { stop(): Promise<void> | void };
}

export interface BackgroundServices {
  stop(): Promise<void>;
}

/** Starts the services in order; stop() stops them in reverse order. */
export function startBackgroundServices(ctx: RegistryContext, services: readonly BackgroundService[]): BackgroundServices {
  const running = services.map((s) => s.start(ctx));
  return {
    async stop() {
      for (const r of running.reverse()) await r.stop();
    },
  };
}
