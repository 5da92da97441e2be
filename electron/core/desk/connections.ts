// connections.json: the registries the desk knows, without any secret. The app's private key lives
// in the secret store under `registry-desk:<connectionId>`; access tokens live only in memory.
import { z } from 'zod';
import { installationInfo } from '@shared/desk/api';
import { readJsonFile, writeJsonFile } from './json-file';

export const SECRET_STORE_KINDS = ['keychain', 'encrypted-file', 'memory'] as const;
export type SecretStoreKind = (typeof SECRET_STORE_KINDS)[number];

export const storedConnectionSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  name: z.string().min(1),
  kind: z.enum(['embedded', 'remote']),
  /** For the embedded registry: the address of its last start (it gets a new port each start). */
  baseUrl: z.string(),
  appId: z.string().min(1),
  secretStore: z.enum(SECRET_STORE_KINDS),
  examinerRead: z.boolean().default(false),
  installations: z.array(installationInfo).default([]),
  /** The operator account this desk acts as on the operator endpoints (its key: operatorKeyId). */
  operatorId: z.string().min(1).optional(),
  /**
   * The registry's log key pinned when the connection was added (or started over), as the person
   * reviewed it; null: the registry published no log then. Absent: connections added before keys
   * were pinned at adding (their first sync pinned it in the cache).
   */
  logKey: z.string().min(1).nullable().optional(),
});
export type StoredConnection = z.infer<typeof storedConnectionSchema>;

const connectionsFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  connections: z.array(storedConnectionSchema),
});
type ConnectionsFile = z.infer<typeof connectionsFileSchema>;

export interface ConnectionStore {
  list(): StoredConnection[];
  activeId(): string | null;
  get(id: string): StoredConnection | undefined;
  /** Adds or replaces (by id). */
  put(connection: StoredConnection): StoredConnection;
  remove(id: string): void;
  setActive(id: string | null): void;
}

export function openConnectionStore(path: string): ConnectionStore {
  let file: ConnectionsFile = readJsonFile(path, connectionsFileSchema) ?? { version: 1, activeId: null, connections: [] };
  const save = (next: ConnectionsFile) => {
    writeJsonFile(path, connectionsFileSchema.parse(next));
    file = next;
  };
  return {
    list: () => file.connections,
    activeId: () => file.activeId,
    get: (id) => file.connections.find((c) => c.id === id),
    put(connection) {
      const valid = storedConnectionSchema.parse(connection);
      const others = file.connections.filter((c) => c.id !== valid.id);
      const index = file.connections.findIndex((c) => c.id === valid.id);
      const connections = index === -1 ? [...others, valid] : file.connections.map((c) => (c.id === valid.id ? valid : c));
      save({ ...file, connections });
      return valid;
    },
    remove(id) {
      save({ ...file, activeId: file.activeId === id ? null : file.activeId, connections: file.connections.filter((c) => c.id !== id) });
    },
    setActive(id) {
      if (id !== null && !file.connections.some((c) => c.id === id)) throw new Error(`no connection ${id}`);
      save({ ...file, activeId: id });
    },
  };
}
