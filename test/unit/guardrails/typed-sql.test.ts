// A ratchet on untyped SQL: outside the db seam, raw SQL strings, casts of query results and
// hand-written row types may only become fewer (test/support/typed-sql-census.ts says what each
// counts). Moving a query to kysely (or to a `sql<Row>` template where kysely cannot say it) lowers a
// count: lower the figure below with it, in the same commit, so it can never climb back.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countSource, takeCensus } from '@test/support/typed-sql-census';

/** Counted when the rule came in (issue 27); only ever lowered. */
const AT_MOST = { rawSql: 46, queryCasts: 13, rowTypes: 7 };

const root = resolve(import.meta.dirname, '../../..');

describe('typed SQL', () => {
  const census = takeCensus(root);
  const worst = (key: keyof typeof AT_MOST) =>
    Object.entries(census.byFile)
      .filter(([, counts]) => counts[key] > 0)
      .sort(([, a], [, b]) => b[key] - a[key])
      .slice(0, 5)
      .map(([file, counts]) => `${file}: ${counts[key]}`)
      .join(', ');

  it.each(Object.keys(AT_MOST) as (keyof typeof AT_MOST)[])('%s never grows', (key) => {
    expect(
      census[key],
      `${census[key]} ${key} outside the db seam, more than the ${AT_MOST[key]} allowed: use kysely or sql<Row>\`…\` (most in ${worst(key)})`,
    ).toBeLessThanOrEqual(AT_MOST[key]);
  });

  it.each(Object.keys(AT_MOST) as (keyof typeof AT_MOST)[])('%s: the figure is lowered when the count falls', (key) => {
    expect(census[key], `only ${census[key]} ${key} are left: lower AT_MOST.${key} in this test to ${census[key]}`).toBe(AT_MOST[key]);
  });

  it('counts what it is meant to count', () => {
    // A known snippet, so a change to the census that stops seeing SQL fails here.
    const snippet = `
      interface CreditRow { id: string }
      const one = db.prepare('SELECT id FROM credits WHERE id = ?').get(id) as CreditRow | undefined;
      const statement = db.prepare(\`UPDATE credits SET amount = \${amount}\`);
      const all = statement.all() as CreditRow[];
      const rows = (await db.selectFrom('credits').selectAll().execute()) as CreditRow[];
      const typed = sql<CreditRow>\`SELECT id FROM credits\`;
      const map = new Map<string, number>(); const notAQuery = map.get('SELECT') as number;
      const prose = 'Select a credit';
    `;
    expect(countSource(snippet, 'electron/core/registry/probe.ts')).toEqual({ rawSql: 2, queryCasts: 3, rowTypes: 1 });
    expect(countSource(snippet, 'renderer/src/probe.ts').rowTypes, 'row types are counted in electron/core only').toBe(0);
  });
});
