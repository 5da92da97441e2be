// The demo seed suspends the changes feed's triggers and records a snapshot instead
// (registry/seed/feed-snapshot.ts): it must end with the feed holding exactly the keys a seed with
// the triggers firing leaves, its triggers back exactly as migrated, and live again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import { seedDemo } from '@registry/seed';
import { withFeedTriggersSuspended } from '@registry/seed/feed-snapshot';
import { makeDataDir } from '@test/support/registry';

const opened: Array<{ registry: OpenedRegistry; remove(): void }> = [];
function emptyRegistry(): OpenedRegistry {
  const data = makeDataDir('seed-feed-');
  const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(Date.parse('2025-10-01T00:00:00Z')) });
  opened.push({ registry, remove: data.remove });
  return registry;
}
afterAll(() => {
  for (const { registry, remove } of opened) {
    registry.close();
    remove();
  }
});

const feedKeys = (r: OpenedRegistry) =>
  r.db.raw.prepare('SELECT kind, key FROM feed_changes ORDER BY kind, key').all() as Array<{ kind: string; key: string }>;
const triggers = (r: OpenedRegistry) =>
  r.db.raw.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all() as Array<{
    name: string;
    sql: string;
  }>;
const sequence = (r: OpenedRegistry) => (r.db.raw.prepare('SELECT seq FROM feed_sequence').get() as { seq: number }).seq;

describe('the demo seed and the changes feed', () => {
  let suspended: OpenedRegistry;
  let live: OpenedRegistry;
  let migratedTriggers: Array<{ name: string; sql: string }>;
  beforeAll(() => {
    suspended = emptyRegistry();
    migratedTriggers = triggers(suspended);
    seedDemo(suspended, { scale: 1 });
    live = emptyRegistry();
    seedDemo(live, { scale: 1 }, { feedTriggers: 'live' });
  });

  it('leaves the feed holding the keys the triggers would have recorded, under one new sequence number', () => {
    const keys = feedKeys(suspended);
    expect(keys.length).toBeGreaterThan(100);
    expect(keys).toEqual(feedKeys(live));
    const seq = sequence(suspended);
    expect(seq).toBe(1);
    expect(suspended.db.raw.prepare('SELECT DISTINCT seq FROM feed_changes').pluck().all()).toEqual([seq]);
  });

  it('puts every trigger back as migrated, and they fire again', () => {
    expect(triggers(suspended)).toEqual(migratedTriggers);
    expect(migratedTriggers.filter((t) => t.name.startsWith('feed_')).length).toBeGreaterThan(20);
    const before = sequence(suspended);
    const org = suspended.db.raw.prepare('SELECT id FROM organizations ORDER BY id LIMIT 1').pluck().get() as string;
    suspended.db.raw.prepare(`UPDATE organizations SET city = 'Elsewhere' WHERE id = ?`).run(org);
    expect(sequence(suspended)).toBeGreaterThan(before);
    const stamped = suspended.db.raw.prepare(`SELECT seq FROM feed_changes WHERE kind = 'organization' AND key = ?`).pluck().get(org);
    expect(stamped).toBeGreaterThan(before);
  });

  it('refuses to suspend the triggers outside a transaction, and drops nothing', () => {
    const registry = emptyRegistry();
    const before = triggers(registry);
    expect(() => withFeedTriggersSuspended(registry, () => 0)).toThrow(/only inside a transaction/);
    expect(triggers(registry)).toEqual(before);
  });

  it('puts the triggers back when the seed fails (the transaction rolls the drop back)', () => {
    const registry = emptyRegistry();
    const before = triggers(registry);
    expect(() =>
      registry.db.transaction(() =>
        withFeedTriggersSuspended(registry, () => {
          throw new Error('seed went wrong');
        }),
      ),
    ).toThrow('seed went wrong');
    expect(triggers(registry)).toEqual(before);
  });
});
