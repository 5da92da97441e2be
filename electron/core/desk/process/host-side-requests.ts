// A request from the host (host-side.ts) to its service process, and the check of its reply.
import { DeskFailure } from '@desk/errors';
import type { ServiceHost } from './host-side-state';
import type { HostToService } from './protocol';

/** Sends a request to the process now (once it is ready) and answers its reply. */
export async function request(host: ServiceHost, build: (id: number) => HostToService): Promise<unknown> {
  const { pending } = host;
  if (host.stopped) throw new DeskFailure('internal', host.stopped);
  if (host.closing) throw new DeskFailure('internal', 'The desk is closing');
  const generation = host.current;
  try {
    await generation.ready;
  } catch (error) {
    throw new DeskFailure('internal', `The desk service is not running: ${(error as Error).message}`);
  }
  const id = host.nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { channel: generation.channel, resolve, reject });
    generation.channel.send(build(id));
  });
}

/** A reply's value checked against its schema: the process is ours, but a malformed answer is said. */
export function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
  what: string,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new DeskFailure('internal', `the desk service answered a malformed ${what}`);
  return result.data;
}
