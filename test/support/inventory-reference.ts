// A plain reference for the desk's inventory credit search: which credits a query, filters and
// sort answer, in which order, the rules written out without SQL so the cache's answers can be
// compared with it.
import { INVENTORY_SORT_FIELDS, type InventoryCreditSearchInput } from '@shared/desk/api';
import type { InventoryCredit } from '@shared/registry/resources';

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const words = (s: string) => fold(s).match(/[\p{L}\p{N}]+/gu) ?? [];
const nocase = (a: string, b: string) => {
  const [x, y] = [a.replace(/[A-Z]/g, (c) => c.toLowerCase()), b.replace(/[A-Z]/g, (c) => c.toLowerCase())];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** One typed word matches a column when its letter/digit runs are consecutive words there, the last a prefix. */
function wordMatches(typed: string, column: string): boolean {
  const runs = words(typed);
  if (runs.length === 0) return true;
  const tokens = words(column);
  return tokens.some((_, start) =>
    runs.every((run, k) => (k === runs.length - 1 ? tokens[start + k]?.startsWith(run) : tokens[start + k] === run)),
  );
}

function referenceMatch(c: InventoryCredit, query: string): boolean {
  const letters = (query.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).join('');
  if (letters.length === 0) return true;
  if ([...letters].length === 1) return nocase(c.project.fullName.slice(0, 1), letters) === 0;
  const typed = query.trim();
  const serialization = !/\s/.test(typed) && c.serialization.toLowerCase().startsWith(typed.toLowerCase());
  const typedWords = query.split(/\s+/).filter((w) => words(w).length > 0);
  const names = typedWords.every((w) => wordMatches(w, c.project.fullName) || wordMatches(w, c.project.num));
  return serialization || names;
}

function referenceSort(field: (typeof INVENTORY_SORT_FIELDS)[number], direction: 'asc' | 'desc') {
  const key = (c: InventoryCredit): (string | number)[] => {
    const tail = [c.serialization, c.id];
    switch (field) {
      case 'project':
        return [c.project.fullName, ...tail];
      case 'serialization':
        return tail;
      case 'vintage':
        return [c.vintage, ...tail];
      case 'type':
        return [c.type, ...tail];
      case 'amount':
        return [c.amount, ...tail];
      case 'supply':
        return [c.supply, ...tail];
    }
  };
  return (a: InventoryCredit, b: InventoryCredit) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) {
      const d =
        typeof x[i] === 'number'
          ? (x[i] as number) - (y[i] as number)
          : i === x.length - 1
            ? (x[i] as string) < (y[i] as string)
              ? -1
              : x[i]! > y[i]!
                ? 1
                : 0
            : nocase(x[i] as string, y[i] as string);
      if (d !== 0) return direction === 'asc' ? d : -d;
    }
    return 0;
  };
}

export function reference(credits: InventoryCredit[], input: InventoryCreditSearchInput): InventoryCredit[] {
  const f = input.filters ?? {};
  const sort = input.sort ?? { field: 'project', direction: 'asc' };
  return credits
    .filter(
      (c) => (!f.vintage || c.vintage === f.vintage) && (!f.type || c.type === f.type) && (!f.projectId || c.project.id === f.projectId),
    )
    .filter((c) => referenceMatch(c, input.query ?? ''))
    .sort(referenceSort(sort.field ?? 'project', sort.direction ?? 'asc'));
}
