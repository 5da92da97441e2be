// The desk's settings.json: what the user chose (theme, sync interval) and where the window was.
import { z } from 'zod';
import { themeSchema } from '@shared/desk/api';
import { readJsonFile, writeJsonFile } from './json-file';

export const windowStateSchema = z.object({
  bounds: z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().min(200), height: z.number().int().min(150) }),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const deskSettingsSchema = z.object({
  theme: themeSchema.default('system'),
  syncIntervalMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  window: windowStateSchema.nullable().default(null),
});
export type DeskSettings = z.infer<typeof deskSettingsSchema>;

export const DEFAULT_SETTINGS: DeskSettings = deskSettingsSchema.parse({});

export interface SettingsStore {
  get(): DeskSettings;
  update(change: Partial<DeskSettings>): DeskSettings;
}

/** Reads settings.json once (a corrupt file throws CorruptFileError) and writes every change through. */
export function openSettingsStore(path: string): SettingsStore {
  let current = readJsonFile(path, deskSettingsSchema) ?? DEFAULT_SETTINGS;
  return {
    get: () => current,
    update(change) {
      const next = deskSettingsSchema.parse({ ...current, ...change });
      writeJsonFile(path, next);
      current = next;
      return current;
    },
  };
}
