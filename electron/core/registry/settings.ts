// Registry-wide settings kept in the database (so a data folder carries its own identity).
import { z } from 'zod';
import type { RegistryContext } from './context';

export const registrySettingsSchema = z.object({
  /** Display name, printed on certificates and in `registry` of projects. */
  name: z.string().trim().min(1).max(120),
  /** Serialization prefix: uppercase letters. */
  code: z.string().regex(/^[A-Z]{2,8}$/, 'must be 2 to 8 uppercase letters'),
  /** Default share of each issuance that goes to the buffer account, in basis points (1/100 %). */
  bufferBasisPoints: z.number().int().min(0).max(10_000),
});
export type RegistrySettings = z.infer<typeof registrySettingsSchema>;

export const DEFAULT_SETTINGS: RegistrySettings = {
  name: 'Registry Desk Carbon Registry',
  code: 'RDR',
  bufferBasisPoints: 1_000,
};

export function readSettings(ctx: RegistryContext): RegistrySettings {
  const rows = ctx.db.all(ctx.db.q.selectFrom('settings').select(['key', 'value']));
  const stored = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  return registrySettingsSchema.parse({ ...DEFAULT_SETTINGS, ...stored });
}
