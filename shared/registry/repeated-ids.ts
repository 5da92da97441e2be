// One rule for ids a request body gives twice (issue 32): an id repeated inside one body is a 400
// that names the field and the id, whichever list it is in (a project's proponents, its validators,
// its documents with its KML file, its benefits). Two entries with one id cannot both be stored, and
// which one the caller meant is not ours to guess. An id already taken by a record in the registry
// is another matter: that is the 409 of the operation that finds it. Shared because
// operator-inputs.ts is.
import type { z } from 'zod';

export interface IdEntry {
  id: string | number | undefined;
  /** Where the id is in the body, as zod paths go (`['otherBenefits', 1, 'id']`). */
  path: PropertyKey[];
  /** The same, as the message shows it (`otherBenefits[1]`). */
  label: string;
}

/** Reports (400) every entry whose id an earlier entry already has, naming both places. */
export function reportRepeatedIds(entries: readonly IdEntry[], ctx: z.RefinementCtx): void {
  const firstAt = new Map<string | number, string>();
  for (const { id, path, label } of entries) {
    if (id === undefined) continue;
    const earlier = firstAt.get(id);
    if (earlier === undefined) firstAt.set(id, label);
    else
      ctx.addIssue({
        code: 'custom',
        path,
        message: `${JSON.stringify(id)} is also the id at ${earlier} (an id may appear only once in a request)`,
      });
  }
}

/** The entries of a list in a body, each with its id (`idKey` of an item, or the item itself). */
export function listEntries(field: string, list: readonly unknown[] | null | undefined, idKey?: string): IdEntry[] {
  return (list ?? []).map((item, i) => ({
    id: idKey === undefined ? (item as string) : ((item as Record<string, string | number | undefined>)[idKey] ?? undefined),
    path: idKey === undefined ? [field, i] : [field, i, idKey],
    label: `${field}[${i}]`,
  }));
}
