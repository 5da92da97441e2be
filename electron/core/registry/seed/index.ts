// The demo seed: fills an empty registry with a deterministic, realistic carbon registry (about
// 30 organizations, 100 projects and 1,000 retirements per scale unit) and writes
// demo-credentials.json. Everything goes through the operator operations (so the ledger, events and
// balances are exactly what operators' own actions would produce) inside ONE transaction: a seed
// either completes or leaves the registry empty. Ids come from a seeded random stream and dates
// from a seed clock, so two seeds give identical rows (except the demo app's RSA key, made fresh).
import { sql } from 'kysely';
import { z } from 'zod';
import { ManualClock } from '@platform/clock';
import { SqliteDatabase } from '@platform/db/database';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { badRequest, conflict } from '../errors';
import { zodMessages } from '@platform/zod-messages';
import { createDemoApp, generateDemoAppKeys, writeDemoCredentials, type DemoCredentials } from './credentials';
import { planDemoCredits } from './credits';
import { createDemoOrganizations } from './organizations';
import { planDemoProjects } from './projects';
import { deterministicUuids, Random } from './random';
import { SEED_END, SEED_START, Timeline, type SeedRun } from './run';
import { makeDemoWallets } from './wallets';
import { SeedLedger } from './seed-ledger';
import { withFeedTriggersSuspended } from './feed-snapshot';
import { auditSeedActions, createDemoOperators, generateDemoOperatorKeys } from './operators';

export { DEMO_CREDENTIALS_FILE, demoCredentialsSchema, type DemoCredentials } from './credentials';

export const seedDemoOptions = z.object({
  /** 1 = about 100 projects and 1,000 retirements; 100 = about 10,000 and 100,000. */
  scale: z.number().int('must be a whole number').min(1).max(500).default(1),
  /** Where to write demo-credentials.json; not written when omitted. */
  dataDir: z.string().min(1).optional(),
  /** Changes the whole registry; the default gives the documented demo. */
  seed: z.string().min(1).max(100).default('registry-desk-demo'),
});
export type SeedDemoOptions = z.input<typeof seedDemoOptions>;

export interface SeedDemoResult {
  credentials: DemoCredentials;
  credentialsFile?: string;
  counts: Record<'organizations' | 'projects' | 'credits' | 'issuances' | 'movements' | 'retirements' | 'onchainRetirements', number>;
  elapsedMs: number;
  /** Where the time went: planning, running the operations, committing the transaction. */
  phasesMs: { plan: number; run: number; commit: number };
}

/** Tables whose rows mean the registry is in use (an empty database has none). */
const CONTENT_TABLES = ['organizations', 'projects', 'credits', 'movements', 'apps'] as const;

export function isRegistryEmpty(ctx: RegistryContext): boolean {
  const { db } = ctx;
  return CONTENT_TABLES.every((table) => !db.first(db.q.selectFrom(table).select(sql.lit(1).as('one')).limit(1)));
}

export function countRows(ctx: RegistryContext, table: keyof RegistryTables): number {
  const { db } = ctx;
  return db.first(db.q.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')))?.n ?? 0;
}

function countOnchainRetirements(ctx: RegistryContext): number {
  const { db } = ctx;
  const counted = db.q.selectFrom('retirements').select((eb) => eb.fn.countAll<number>().as('n'));
  return db.first(counted.where('source', '=', 'onchain'))?.n ?? 0;
}

/**
 * One transaction of a few hundred thousand rows touches far more B-tree pages than SQLite's
 * default 2 MiB cache holds; it would spill and re-read pages all along (measured: about a third
 * of the time at scale 100). A larger cache for the seed only, then the connection's own again.
 */
function withLargePageCache<T>(ctx: RegistryContext, fn: () => T): T {
  if (!(ctx.db instanceof SqliteDatabase)) return fn();
  const raw = ctx.db.raw;
  const previousCache = raw.pragma('cache_size', { simple: true }) as number;
  const previousTempStore = raw.pragma('temp_store', { simple: true }) as number;
  raw.pragma(`cache_size = ${-SEED_PAGE_CACHE_KIB}`);
  // Nested operations are savepoints; their sub-journal is a temporary file unless kept in memory
  // (measured: ~870,000 pwrite calls at scale 10 without this).
  raw.pragma('temp_store = MEMORY');
  try {
    return fn();
  } finally {
    raw.pragma(`cache_size = ${previousCache}`);
    raw.pragma(`temp_store = ${previousTempStore}`);
  }
}
const SEED_PAGE_CACHE_KIB = 512 * 1024;

/** Test seam: `feedTriggers: 'live'` seeds with the feed's triggers firing on every write (see feed-snapshot.ts). */
export interface SeedInternals {
  feedTriggers?: 'suspended' | 'live';
}

export function seedDemo(ctx: RegistryContext, options: SeedDemoOptions = {}, internals: SeedInternals = {}): SeedDemoResult {
  const parsed = seedDemoOptions.safeParse(options);
  if (!parsed.success) throw badRequest(zodMessages(parsed.error.issues));
  const { scale, dataDir, seed } = parsed.data;
  if (!isRegistryEmpty(ctx)) throw conflict('The demo seed fills only an empty registry; this one already has data');

  const started = performance.now();
  // Made before the transaction: slow, random on purpose (a key is never derived from a public seed).
  const keys = generateDemoAppKeys();
  const operatorKeys = generateDemoOperatorKeys();
  const clock = new ManualClock(SEED_START);
  const seedCtx: RegistryContext = { ...ctx, clock, newId: deterministicUuids(new Random(`${seed}/ids`)) };
  const run: SeedRun = {
    ctx: seedCtx,
    clock,
    ledger: new SeedLedger(seedCtx),
    random: new Random(`${seed}/content`),
    timeline: new Timeline(),
    scale,
  };

  let planned = started;
  let ran = started;
  const credentials = withLargePageCache(ctx, () =>
    ctx.db.transaction(() => (internals.feedTriggers === 'live' ? seedAll() : withFeedTriggersSuspended(ctx, seedAll))),
  );
  function seedAll(): DemoCredentials {
    const orgs = createDemoOrganizations(run);
    const projects = planDemoProjects(run, orgs);
    const wallets = makeDemoWallets(new Random(`${seed}/wallets`), Math.max(3, Math.ceil(scale / 2)));
    planDemoCredits(run, orgs, projects, wallets);
    planned = performance.now();
    run.timeline.runAll(clock);

    const { db } = ctx;
    const showcaseStock = db.first(
      db.q
        .selectFrom('balances as b')
        .innerJoin('accounts as a', 'a.id', 'b.account_id')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('b.amount'), sql.lit(0)).as('n'))
        .where('a.kind', '=', 'warehouse')
        .where('a.organization_id', '=', orgs.showcaseProponent.id),
    );
    if ((showcaseStock?.n ?? 0) <= 0) throw new Error('seed: the showcase proponent ended with an empty warehouse');
    const idle = wallets.filter((w) => w.retirements.length === 0);
    if (idle.length > 0) throw new Error(`seed: ${idle.length} demo wallets made no on-chain retirement`);

    clock.set(SEED_END);
    const result: DemoCredentials = createDemoApp(
      run.ctx,
      keys,
      [
        { organizationId: orgs.showcaseProponent.id, permissions: { organization_info: 'VIEW', organization_warehouse: 'WRITE' } },
        { organizationId: orgs.showcaseBuyer.id, permissions: { organization_info: 'VIEW', organization_warehouse: 'VIEW' } },
      ],
      wallets,
    );
    // made last, so that the ids of everything before them are what they were without operators;
    // the demo audit log still starts with them (nothing before writes an entry)
    result.operators = createDemoOperators(run.ctx, operatorKeys);
    auditSeedActions(
      run.ctx,
      {
        'organizations.create': countRows(ctx, 'organizations'),
        'projects.create': countRows(ctx, 'projects'),
        'credits.issue': countRows(ctx, 'credit_events'),
        'credits.retire': countRows(ctx, 'retirements'),
        'apps.create': 1,
        'installations.create': result.installations.length,
      },
      { 'apps.create': [result.app.id], 'installations.create': result.installations.map((i) => i.id) },
    );
    ran = performance.now();
    return result;
  }
  const committed = performance.now();

  const credentialsFile = dataDir ? writeDemoCredentials(dataDir, credentials) : undefined;
  return {
    credentials,
    ...(credentialsFile ? { credentialsFile } : {}),
    counts: {
      organizations: countRows(ctx, 'organizations'),
      projects: countRows(ctx, 'projects'),
      credits: countRows(ctx, 'credits'),
      issuances: countRows(ctx, 'credit_events'),
      movements: countRows(ctx, 'movements'),
      retirements: countRows(ctx, 'retirements'),
      onchainRetirements: countOnchainRetirements(ctx),
    },
    elapsedMs: Math.round(committed - started),
    phasesMs: { plan: Math.round(planned - started), run: Math.round(ran - planned), commit: Math.round(committed - ran) },
  };
}
