// Model-based property test of the warehouse, calling the registry's functions directly on a real
// SQLite file (and, in the `postgres` vitest project, on a real PostgreSQL database: fewer and
// shorter runs there, each on a database of its own). fast-check generates sequences of reserve / cancel / finish / clock advance /
// deposit / withdraw / worker runs over several organizations; a small model predicts which must
// succeed, and after every step the registry's books are checked:
//   - per credit: issued (credit_events) = every balance + retired + cancelled
//   - the ledger (sum of movements per account) equals the balances table
//   - available (warehouse balance − held) is never negative, and equals the model's
//   - each reservation reads as exactly the state the model expects; terminal states never change
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '@platform/clock';
import * as ops from '@registry/operations';
import { makeDataDir, ON_POSTGRES, openTestRegistryOn, rsaKeyPair } from '@test/support/registry';
import { stockWarehouse } from '@test/support/stocked-warehouse';
import { commands } from './warehouse-invariants-commands';
import { key, type Model, type World } from './warehouse-invariants-model';

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

function buildWorld(): World {
  const data = makeDataDir('warehouse-invariants-');
  const clock = new ManualClock(Date.parse('2025-01-01T00:00:00Z'));
  const ctx = openTestRegistryOn(data, clock);
  expect(ctx.db.engine).toBe(ON_POSTGRES ? 'postgres' : 'sqlite');
  const validator = ops.createOrganization(ctx, {
    fullName: 'Validator',
    type: 'validationVerificationBody',
    countryCode: 'GB',
    verified: true,
  }).id;
  const orgs = [
    ops.createOrganization(ctx, { fullName: 'North', countryCode: 'KE', verified: true }).id,
    ops.createOrganization(ctx, { fullName: 'South', countryCode: 'BR', verified: true }).id,
    ops.createOrganization(ctx, { fullName: 'East (unverified)', countryCode: 'IN', verified: false }).id,
  ];
  const credits: string[] = [];
  for (const [i, owner] of orgs.slice(0, 2).entries()) {
    const stock = { organizationId: owner, verificationBodyId: validator, projectName: `Project ${i}`, vintages: ['2021', '2022'] };
    credits.push(...stockWarehouse(ctx, { ...stock, issue: 100, bufferBasisPoints: 1000, deposit: 40 }));
  }
  const appId = ops.createApp(ctx, { name: 'Property app', publicKeyPem: rsaKeyPair(0).publicKeyPem }).id;
  const world = { ctx, clock, orgs, credits, appId, close: () => (ctx.close(), data.remove()) };
  worlds.push(world);
  return world;
}

function initialModel(w: World): Model {
  const m: Model = { now: w.clock.now(), reservations: [], warehouse: new Map(), inventory: new Map(), seen: new Map() };
  for (const [i, credit] of w.credits.entries()) {
    const owner = w.orgs[Math.floor(i / 2)]!;
    m.warehouse.set(key(owner, credit), 40_000_000);
    m.inventory.set(key(owner, credit), 90_000_000 - 40_000_000); // 100 t issued, 10 % to the buffer
  }
  return m;
}

describe('warehouse invariants under random command sequences', () => {
  it('keeps the books exact, availability non-negative and states consistent after every step', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: ON_POSTGRES ? 40 : 60 }), (cmds) => {
        const w = buildWorld();
        try {
          fc.modelRun(() => ({ model: initialModel(w), real: w }), cmds);
        } finally {
          worlds.splice(worlds.indexOf(w), 1);
          w.close();
        }
      }),
      // PostgreSQL: each run creates and migrates a database, and every check is a round trip
      { numRuns: ON_POSTGRES ? 12 : 150 },
    );
  });
});
