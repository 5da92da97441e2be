// The changes feed's compiled item check (electron/core/desk/sync/shape-check.ts): every item a real
// registry's feed sends passes it and is exactly what zod would answer for it; anything zod would
// refuse or reshape does not pass (the sync then runs zod).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedItem } from '@shared/registry/endpoints';
import { tolerant } from '@shared/registry/resources';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import { changesSince, decodeCursor, type FeedViewer } from '@registry/queries/changes';
import { compileShapeCheck } from '@desk/sync/shape-check';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';
import { addVolume } from '@test/support/desk-support';

const schema = feedItem(tolerant);
const exact = compileShapeCheck(schema);
const dir = makeDataDir('shape-check-');
let registry: OpenedRegistry;
let f: Fixture;
/** The items of a snapshot as a client receives them (through JSON). */
let items: Record<string, unknown>[];

beforeAll(() => {
  registry = openRegistry({ dataDir: dir.dir });
  f = buildFixture(registry);
  addVolume(registry, f, { projects: 3, retirements: 3 });
  // Every page of the snapshot (a page carries at most one account inventory).
  const snapshot = (viewer: FeedViewer) => {
    const changes = [];
    for (let page = changesSince(registry, viewer, null, 1000); ;) {
      changes.push(...page.changes);
      if (!page.more) return changes;
      page = changesSince(registry, viewer, decodeCursor(registry, page.cursor), 1000);
    }
  };
  const examiner = snapshot({ examinerRead: true, organizationId: null, warehouseRead: false });
  const installation = snapshot({ examinerRead: false, organizationId: f.orgA, warehouseRead: true });
  items = JSON.parse(JSON.stringify([...examiner, ...installation])) as Record<string, unknown>[];
});
afterAll(() => {
  registry.close();
  dir.remove();
});

const zodCopy = (value: unknown) => JSON.stringify(schema.parse(value));

describe('the compiled feed item check', () => {
  it('passes every item of a real snapshot, each exactly as zod answers it', () => {
    const types = new Set(items.map((item) => item.type));
    expect([...types].sort()).toEqual([
      'internalProject',
      'inventory',
      'organization',
      'project',
      'projectCredits',
      'retirement',
      'warehouse',
    ]);
    for (const item of items) {
      expect(exact(item), JSON.stringify(item).slice(0, 200)).toBe(true);
      expect(zodCopy(item)).toBe(JSON.stringify(item));
    }
  });

  it('is not sure of what zod would refuse or reshape', () => {
    const project = items.find((item) => item.type === 'project') as { type: 'project'; project: Record<string, unknown> };
    const retirement = items.find((item) => item.type === 'retirement') as { type: 'retirement'; retirement: Record<string, unknown> };
    const { id, ...rest } = project.project;
    const cases: [string, unknown, 'refused' | 'reshaped'][] = [
      ['an unknown field', { ...project, project: { ...project.project, extra: 1 } }, 'reshaped'],
      ['fields in another order', { ...project, project: { ...rest, id } }, 'reshaped'],
      ['a number that is not a number of digits', { ...project, project: { ...project.project, num: '12a' } }, 'refused'],
      ['a date without its offset', { ...project, project: { ...project.project, startDate: '2020-01-01T00:00:00' } }, 'refused'],
      ['a missing field', { ...project, project: rest }, 'refused'],
      ['a field of the wrong type', { ...retirement, retirement: { ...retirement.retirement, amount: '1' } }, 'refused'],
      ['an unknown type', { ...project, type: 'gizmo' }, 'refused'],
      ['not an object', [project], 'refused'],
      ['a full retirement marked unclaimed', { ...retirement, retirement: { ...retirement.retirement, isClaimed: false } }, 'reshaped'],
    ];
    for (const [what, value, zod] of cases) {
      expect(exact(value), what).toBe(false);
      const parsed = schema.safeParse(value);
      expect(parsed.success ? 'reshaped' : 'refused', what).toBe(zod);
      if (parsed.success) expect(JSON.stringify(parsed.data), what).not.toBe(JSON.stringify(value));
    }
  });

  it('passes a redacted retirement, the union option zod picks for it', () => {
    const retirement = items.find((item) => item.type === 'retirement') as { retirement: Record<string, unknown> };
    const { createdAt, amount, project } = retirement.retirement;
    const redacted = { type: 'retirement', retirement: { id: 'r1', isClaimed: false, createdAt, amount, project } };
    expect(exact(redacted)).toBe(true);
    expect(zodCopy(redacted)).toBe(JSON.stringify(redacted));
  });
});
