// From validated registry resources to the cache's columns (what lists filter, sort and search on).
import { hash } from 'node:crypto';
import { countryName } from '@shared/registry/countries';
import type { Project, Retirement } from '@shared/registry/resources';
import type { CacheTables } from './schema';

/**
 * Content hash of a value as the client validated it: equal hashes mean nothing to write. The
 * one-shot crypto.hash (Node 20.12+) makes the same digest as a Hash object, about three times
 * faster for rows this small (a first sync at --scale 100 hashes some 200,000).
 */
export const hashJson = (json: string): string => hash('sha1', json, 'base64url');
/** hashJson of a text given as its UTF-8 bytes (the same hash, without decoding them). */
export const hashJsonBytes = (utf8: Uint8Array): string => hash('sha1', utf8, 'base64url');

/** What a project contributes to its cache row: every column but the key, the hash and the JSON. */
export type ProjectColumns = Omit<CacheTables['projects'], 'rowid' | 'scope' | 'id' | 'row_hash' | 'json'>;

export function projectColumns(p: Project): ProjectColumns {
  return {
    num: p.num,
    num_sort: Number(p.num),
    full_name: p.fullName,
    short_description: p.shortDescription,
    status: p.status,
    country_code: p.countryCode ?? null,
    country_name: p.countryCode ? (countryName(p.countryCode) ?? null) : null,
    sector_id: p.sector.id,
    sector_title: p.sector.title,
    methodology_id: p.methodology.id,
    methodology_title: p.methodology.title,
    type_id: p.type.id,
    type_title: p.type.title,
    proponents: p.proponents.map((o) => o.fullName).join(', '),
    proponent_ids: JSON.stringify(p.proponents.map((o) => o.id)),
    start_date: p.startDate,
  };
}

export function projectSearchText(p: Project, c: ProjectColumns) {
  return {
    name: p.fullName,
    num: p.num,
    description: `${p.shortDescription}\n${p.description}`,
    country: [c.country_name, c.country_code].filter(Boolean).join(' '),
    methodology: `${p.methodology.title} ${p.methodology.id}`,
    proponents: c.proponents,
  };
}

/** A project list row's parts beside its JSON: its columns, its search text and its proponents' ids. */
export interface ProjectRowParts {
  columns: ProjectColumns;
  search: ReturnType<typeof projectSearchText>;
  proponents: string[];
}

export function projectRowParts(p: Project): ProjectRowParts {
  const columns = projectColumns(p);
  return { columns, search: projectSearchText(p, columns), proponents: p.proponents.map((o) => o.id) };
}

/** What a retirement contributes to its cache row: every column but the key, the hash and the JSON. */
export type RetirementColumns = Omit<CacheTables['retirements'], 'rowid' | 'id' | 'row_hash' | 'json'>;

export function retirementColumns(r: Retirement): RetirementColumns {
  // A redacted retirement (unclaimed, or of an unverified organization) has only id, isClaimed,
  // createdAt, amount and project: its other columns stay NULL.
  const full = 'beneficiary' in r ? r : undefined;
  return {
    created_at: r.createdAt,
    is_claimed: r.isClaimed ? 1 : 0,
    amount: r.amount,
    beneficiary: full?.beneficiary ?? null,
    reason: full?.reason ?? null,
    organization_name: full?.organizationOwner.fullName ?? null,
    project_id: r.project.id,
    project_name: r.project.fullName,
    project_num: r.project.num,
    serialization: full?.serialization ?? null,
    vintage: full?.vintage ?? null,
  };
}
