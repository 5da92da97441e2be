// The messages between a host (the Electron main process, or the web host's process) and the desk
// service running in its own process (Electron's utilityProcess, or a Node child process). Both
// sides parse every message they receive with these schemas: a malformed one is dropped and logged,
// never acted on. Requests carry an id; every request gets exactly one reply with that id.
// Nothing here is logged: `start` carries a command-line key, `key.put` and the keychain messages a
// private key.
import { z } from 'zod';
import { deskError, deskEvent, FILE_KINDS, pickedKey, registryUrl } from '@shared/desk/api';
import { windowStateSchema } from '../settings';

export const requestId = z.number().int().nonnegative();

/** What the service process needs to start; sent as the first message (never on the command line). */
export const serviceLaunch = z.strictObject({
  dataDir: z.string().min(1),
  host: z.enum(['electron', 'web']),
  version: z.string(),
  /** An adjustable clock (e2e tests), moved with `clock.advance`. */
  testClock: z.boolean(),
  remote: z.strictObject({ baseUrl: registryUrl, appId: z.string().min(1), privateKeyPem: z.string().min(1) }).optional(),
  /** The built sync worker script (Electron); absent, the worker starts from its TypeScript source. */
  syncWorkerFile: z.string().min(1).optional(),
  /**
   * The embedded registry's certificate worker pool: its size (default: the cores; 0 renders in the
   * service's own thread, the benchmark's single-thread floor), its built script (Electron).
   */
  certificateWorkers: z
    .strictObject({ size: z.number().int().min(0).max(64).optional(), workerFile: z.string().min(1).optional() })
    .optional(),
  /** Where the OS keychain is driven: in the service process, or by the host over `keychain` requests. */
  keychain: z.enum(['service', 'host']),
  /** Sync at start and on the settings interval (default true; tests turn it off). */
  autoSync: z.boolean().optional(),
});
export type ServiceLaunch = z.infer<typeof serviceLaunch>;

export const keychainOp = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('probe') }),
  z.strictObject({ op: z.literal('read'), connectionId: z.string().min(1) }),
  z.strictObject({ op: z.literal('import'), connectionId: z.string().min(1), pem: z.string().min(1) }),
  z.strictObject({ op: z.literal('delete'), connectionId: z.string().min(1) }),
]);
export type KeychainOp = z.infer<typeof keychainOp>;

/** An error across the process boundary; `reason` rebuilds a KeyReadError on the other side. */
export const wireError = z.strictObject({
  message: z.string(),
  reason: z.enum(['missing', 'unreadable', 'invalid']).optional(),
});
export type WireError = z.infer<typeof wireError>;

export const hostToService = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('start'), launch: serviceLaunch }),
  /** One desk API call; `method` and `input` are validated by the service's dispatch. */
  z.strictObject({ type: z.literal('call'), id: requestId, method: z.string(), input: z.unknown() }),
  z.strictObject({ type: z.literal('artifact.get'), id: requestId, handle: z.string() }),
  z.strictObject({ type: z.literal('artifact.release'), handle: z.string() }),
  z.strictObject({ type: z.literal('key.put'), id: requestId, pem: z.string(), fileName: z.string() }),
  z.strictObject({ type: z.literal('window.get'), id: requestId }),
  z.strictObject({ type: z.literal('window.set'), id: requestId, window: windowStateSchema }),
  z.strictObject({
    type: z.literal('clock.advance'),
    id: requestId,
    ms: z
      .number()
      .int()
      .min(0)
      .max(366 * 24 * 3600 * 1000),
  }),
  z.strictObject({
    type: z.literal('keychain.reply'),
    id: requestId,
    ok: z.boolean(),
    value: z.unknown().optional(),
    error: wireError.optional(),
  }),
  z.strictObject({ type: z.literal('close'), id: requestId }),
]);
export type HostToService = z.infer<typeof hostToService>;

export const artifact = z.strictObject({
  handle: z.string(),
  kind: z.enum(FILE_KINDS),
  filename: z.string(),
  size: z.number().int().nonnegative(),
  mimeType: z.string(),
  bytes: z.instanceof(Uint8Array),
});

export const serviceToHost = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), pid: z.number().int() }),
  z.strictObject({ type: z.literal('start-failed'), message: z.string() }),
  /** The answer to request `id`: a value, or a desk error a user can read. */
  z.strictObject({
    type: z.literal('reply'),
    id: requestId,
    ok: z.boolean(),
    value: z.unknown().optional(),
    error: deskError.optional(),
  }),
  z.strictObject({ type: z.literal('event'), event: deskEvent }),
  z.strictObject({ type: z.literal('log'), line: z.string() }),
  /** The service asks the host to drive the OS keychain (launch.keychain === 'host'). */
  z.strictObject({ type: z.literal('keychain'), id: requestId, request: keychainOp }),
]);
export type ServiceToHost = z.infer<typeof serviceToHost>;

/** A desk call's answer, as service.ts's dispatch gives it. */
export const deskResult = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ ok: z.literal(false), error: deskError }),
]);

/** Reply values with a shape of their own, checked by the host before use. */
export const replyValues = {
  artifact: artifact.nullable(),
  pickedKey,
  window: windowStateSchema.nullable(),
  clockOffset: z.number(),
};
