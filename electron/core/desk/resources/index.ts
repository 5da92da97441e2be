// The desk's synced resources, put together for the cache from THE list (list.ts): every kind's
// writers become `cache.write.*` and its queries `cache.*` (cache/index.ts).
import type { WriterBase } from '@desk/cache/writers';
import type { QueryBase } from '@desk/cache/queries';
import type { AllOf } from './kind';
import { RESOURCE_KINDS } from './list';

type Kind = (typeof RESOURCE_KINDS)[number];
type KindWriters = AllOf<ReturnType<Kind['writers']>>;
type KindQueries = AllOf<ReturnType<Kind['queries']>>;

export function createResourceWriters(base: WriterBase): KindWriters {
  return Object.assign({}, ...RESOURCE_KINDS.map((kind) => kind.writers(base))) as KindWriters;
}

export function createResourceQueries(base: QueryBase): KindQueries {
  return Object.assign({}, ...RESOURCE_KINDS.map((kind) => kind.queries(base))) as KindQueries;
}
