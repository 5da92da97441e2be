// A project by its number (the "Project 1006" people see and type into an address) rather than its
// id: the desk's page addresses use whichever the user has (renderer lib/route.ts).
import type { Kysely } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';

const idOfNum = (v: { num: string }, q: Kysely<CacheTables>) =>
  q.selectFrom('projects').select('id').where('num', '=', v.num).orderBy('scope', 'desc').limit(1);

/** The id of the project numbered `num`, if the cache holds one. */
export function projectIdOfNum(db: SqliteDatabase<CacheTables>, num: string): string | undefined {
  return db.prepared(idOfNum).first({ num })?.id;
}
