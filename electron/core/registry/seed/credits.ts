// The demo registry's credits and their story on the ledger, all through the operator operations so that
// every balance is derived from movements:
//   - ex-post issuances per vintage (2016-2025) with buffer contributions; ex-ante issuances that
//     are sold forward or parked in a warehouse and cancelled once the ex-post credits arrive;
//   - a registry share moved to the registry account, corrections cancelled, buffer credits moved
//     to the adjustment account after a reversal (and partly cancelled there);
//   - sales to buyers, who retire them (claimed, or redacted when the buyer is unverified);
//     retirements by proponents; unclaimed on-chain retirements by wallets;
//   - warehouse deposits (and a few withdrawals) for proponents and buyers.
// Amounts are planned in whole grams; each plan spends at most what its issuance put there.
// Records with events (issuances) and the rarer operator actions (registry share, corrections,
// reversals, withdrawals, ex-ante handling) go through the operator operations; the high-volume moves
// (retirements, sales to buyers, warehouse deposits) through SeedLedger, the same ledger functions
// without per-call overhead (see seed-ledger.ts).
import type { CreditType } from '@shared/registry/vocabulary';
import { readSettings } from '../settings';
import { issueCredits } from '../operations/issuance';
import { setOrganizationVerified } from '../operations/organizations';
import { cancelCredits, depositToWarehouse, transferCredits, withdrawFromWarehouse } from '../operations/transfers';
import { BENEFICIARY_FIRST, BENEFICIARY_LAST, RETIREMENT_REASONS } from './catalog';
import { organizationPicker, type SeedOrganization, type SeedOrganizations } from './organizations';
import type { SeedProject } from './projects';
import type { Random } from './random';
import { DAY_MS, laterThan, SEED_END, timeBetween, tonnes, utc, type SeedRun } from './run';
import type { DemoWallet } from './wallets';

const G = 1_000_000; // grams per tonne
const KG = 1_000;
/** Retirements per scale unit. */
const RETIREMENTS_PER_SCALE = 1_000;

interface CreditPlan {
  project: SeedProject;
  vintage: number;
  type: CreditType;
  /** Filled in when its first issuance runs. */
  creditId?: string;
  firstIssuedAt: number;
  /** When its last issuance event runs: everything else happens after. */
  lastIssuedAt: number;
  inventoryGrams: number;
  bufferGrams: number;
}

const wholeTonnes = (grams: number) => Math.floor(grams / G) * G;
const wholeKilograms = (grams: number) => Math.floor(grams / KG) * KG;

function creditIdOf(plan: CreditPlan): string {
  if (!plan.creditId) throw new Error(`seed: ${plan.project.num}/${plan.vintage}/${plan.type} used before its issuance`);
  return plan.creditId;
}

function issuanceGrams(random: Random, project: SeedProject, share: number): number {
  const t = project.annualTonnes * share * random.between(0.55, 1.05);
  // engineered removals are measured to the kilogram; nature-based and avoidance to the tonne
  return project.archetype.sector === 'engineered-removal' ? Math.max(KG, Math.round(t * 1000) * KG) : Math.max(G, Math.round(t) * G);
}

export function planDemoCredits(run: SeedRun, orgs: SeedOrganizations, projects: readonly SeedProject[], wallets: DemoWallet[]): void {
  const { random } = run;
  const defaultBuffer = readSettings(run.ctx).bufferBasisPoints;
  const credits: CreditPlan[] = [];
  const verifiedAtIssuance = new Set<string>();
  /** Unverified proponents that get credits: verified for their issuances, unverified again at the end. */
  const lapsedVerifications = new Set<string>();

  const schedule = (
    plan: CreditPlan,
    at: number,
    amountGrams: number,
    monitoring: [number, number],
    verificationBodyId: string,
    files: number,
  ) => {
    const bufferBasisPoints = plan.project.archetype.bufferBasisPoints ?? defaultBuffer;
    // the same split issueCredits makes (operations/issuance.ts), so the plan knows what lands where
    const toBuffer = Math.floor((amountGrams * bufferBasisPoints) / 10_000);
    plan.inventoryGrams += amountGrams - toBuffer;
    plan.bufferGrams += toBuffer;
    plan.lastIssuedAt = Math.max(plan.lastIssuedAt, at);
    const vintage = String(plan.vintage);
    const url = `https://files.rdr-demo.example/projects/${plan.project.num}/issuances/${vintage}-${plan.type}`;
    const input: Parameters<typeof issueCredits>[1] = {
      projectId: plan.project.id,
      vintage,
      type: plan.type,
      amount: tonnes(amountGrams),
      bufferBasisPoints,
      monitoringPeriodStart: new Date(monitoring[0]).toISOString(),
      monitoringPeriodEnd: new Date(monitoring[1]).toISOString(),
      verificationBodyId,
      files: [
        {
          fileName: `monitoring-report-${vintage}.pdf`,
          size: random.int(200_000, 9_000_000),
          url: `${url}/monitoring-report.pdf`,
          type: 'monitoringReport',
        },
        ...(files > 1
          ? [
              {
                fileName: `verification-report-${vintage}.pdf`,
                size: random.int(100_000, 3_000_000),
                url: `${url}/verification-report.pdf`,
                type: 'verificationReport',
              },
            ]
          : []),
      ],
    };
    const owner = plan.project.owner;
    if (!owner.verified) lapsedVerifications.add(owner.id);
    run.timeline.at(at, () => {
      // credits go only to verified organizations (issueCredits refuses the others): a proponent
      // that ends the story unverified passes business verification just before its first issuance
      // and loses it at the end (see lapsedVerifications below)
      if (!owner.verified && !verifiedAtIssuance.has(owner.id)) {
        setOrganizationVerified(run.ctx, { organizationId: owner.id, verified: true });
        verifiedAtIssuance.add(owner.id);
      }
      const result = issueCredits(run.ctx, input);
      if (plan.creditId && plan.creditId !== result.creditId) throw new Error('seed: an issuance landed on another credit');
      plan.creditId = result.creditId;
      if (result.toBuffer !== toBuffer) throw new Error('seed: the buffer split differs from issueCredits');
    });
  };

  // ---- issuances ----
  for (const project of projects) {
    if (project.finalStatus !== 'registered' && project.finalStatus !== 'validated') continue;
    const verifier = () => (random.chance(0.6) ? project.verificationBodyIds[0]! : random.pick(orgs.verificationBodies).id);
    const exPostByVintage = new Map<number, CreditPlan>();

    if (project.registeredAt !== undefined) {
      for (let vintage = project.creditingYear; vintage <= 2025; vintage++) {
        const partial = vintage === 2025;
        if (partial ? !random.chance(0.35) : random.chance(0.1)) continue;
        const natural = partial
          ? timeBetween(random, utc(2025, 8, 1), utc(2025, 9, 25))
          : timeBetween(random, utc(vintage + 1, 2), utc(vintage + 1, 9));
        const at = Math.max(natural, project.registeredAt + random.int(15, 90) * DAY_MS);
        if (at > SEED_END) continue;
        const plan: CreditPlan = {
          project,
          vintage,
          type: 'exPost',
          firstIssuedAt: at,
          lastIssuedAt: at,
          inventoryGrams: 0,
          bufferGrams: 0,
        };
        const yearEnd = partial ? utc(2025, 6, 30) : utc(vintage, 12, 31);
        if (!partial && random.chance(0.2)) {
          // two monitoring periods, two issuance events on one credit
          const second = laterThan(random, at, 30, 120);
          schedule(plan, at, issuanceGrams(random, project, 0.5), [utc(vintage), utc(vintage, 6, 30)], verifier(), 1);
          schedule(plan, second, issuanceGrams(random, project, 0.5), [utc(vintage, 7, 1), yearEnd], verifier(), 2);
        } else {
          schedule(plan, at, issuanceGrams(random, project, partial ? 0.5 : 1), [utc(vintage), yearEnd], verifier(), 2);
        }
        credits.push(plan);
        exPostByVintage.set(vintage, plan);
      }
    }

    const reviewedAt = project.registeredAt ?? project.validatedAt;
    if (project.archetype.exAnte && reviewedAt !== undefined && random.chance(0.7)) {
      const at = laterThan(random, reviewedAt, 10, 60);
      const firstYear = new Date(at).getUTCFullYear() + 1;
      for (let vintage = firstYear; vintage <= Math.min(2025, firstYear + 2); vintage++) {
        const plan: CreditPlan = {
          project,
          vintage,
          type: 'exAnte',
          firstIssuedAt: at,
          lastIssuedAt: at,
          inventoryGrams: 0,
          bufferGrams: 0,
        };
        schedule(plan, at, issuanceGrams(random, project, random.between(0.3, 0.6)), [utc(vintage), utc(vintage, 12, 31)], verifier(), 1);
        credits.push(plan);
        planExAnte(run, orgs, plan, exPostByVintage.get(vintage));
      }
    }
  }

  // ---- what happens to ex-post credits ----
  const exPost = credits.filter((c) => c.type === 'exPost');
  const weights = exPost.map(() => random.between(0.3, 1.7));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const target = RETIREMENTS_PER_SCALE * run.scale;
  const onchain = { count: 0 };
  exPost.forEach((plan, i) => {
    const retirements = Math.round((target * weights[i]!) / totalWeight);
    planExPost(run, orgs, plan, retirements, wallets, onchain);
  });

  // the demo keeps proponents without business verification: theirs lapses at the end of the story
  for (const organizationId of lapsedVerifications) {
    run.timeline.at(SEED_END, () => void setOrganizationVerified(run.ctx, { organizationId, verified: false }));
  }
}

function planExAnte(run: SeedRun, orgs: SeedOrganizations, plan: CreditPlan, exPost: CreditPlan | undefined): void {
  const { random, timeline, ctx } = run;
  const owner = plan.project.owner;
  const pool = plan.inventoryGrams;
  const T = plan.lastIssuedAt;
  let spent = 0;
  if (owner.usesWarehouse) {
    const deposit = wholeTonnes(pool * random.between(0.2, 0.4));
    if (deposit > 0) {
      spent += deposit;
      timeline.at(
        laterThan(random, T, 3, 40),
        () => void depositToWarehouse(ctx, { organizationId: owner.id, creditId: creditIdOf(plan), amount: tonnes(deposit) }),
      );
    }
  }
  if (random.chance(0.5)) {
    const sale = wholeTonnes(pool * random.between(0.1, 0.3));
    const buyer = random.pick(orgs.buyers);
    if (sale > 0) {
      spent += sale;
      timeline.at(
        laterThan(random, T, 20, 300),
        () =>
          void transferCredits(ctx, {
            from: { kind: 'inventory', organizationId: owner.id },
            to: { kind: 'inventory', organizationId: buyer.id },
            creditId: creditIdOf(plan),
            amount: tonnes(sale),
          }),
      );
    }
  }
  // Once the ex-post credits of the vintage are verified, the unsold ex-ante ones are cancelled.
  const rest = pool - spent;
  if (exPost && rest > 0) {
    timeline.at(
      laterThan(random, Math.max(T, exPost.firstIssuedAt), 1, 20),
      () =>
        void cancelCredits(ctx, {
          from: { kind: 'inventory', organizationId: owner.id },
          creditId: creditIdOf(plan),
          amount: tonnes(rest),
          reason: 'Unsold ex-ante credits cancelled once the ex-post credits were verified',
        }),
    );
  }
}

function beneficiaryFor(random: Random, buyer: SeedOrganization | undefined): string {
  if (buyer && random.chance(0.7)) return buyer.fullName;
  return `${random.pick(BENEFICIARY_FIRST)} ${random.pick(BENEFICIARY_LAST)}`;
}

/**
 * Retirement sizes: many small and a few large, like a real market; whole kilograms, at least 1 kg
 * each, adding up to no more than `budget` (which must be at least `count` kg).
 */
function splitAmounts(random: Random, budget: number, count: number): number[] {
  const weights = Array.from({ length: count }, () => {
    const u = random.next();
    return 0.03 + u * u * u;
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const shared = budget - count * KG;
  return weights.map((w) => KG + wholeKilograms((shared * w) / sum));
}

function planExPost(
  run: SeedRun,
  orgs: SeedOrganizations,
  plan: CreditPlan,
  retirementCount: number,
  wallets: DemoWallet[],
  onchain: { count: number },
): void {
  const { random, timeline, ctx } = run;
  const owner = plan.project.owner;
  const ownerInventory = { kind: 'inventory' as const, organizationId: owner.id };
  const T = plan.lastIssuedAt;
  const pool = plan.inventoryGrams;
  const credit = () => creditIdOf(plan);
  let remaining = pool;

  // the registry's share of proceeds, paid in credits to the registry account
  if (random.chance(0.3)) {
    const fee = wholeTonnes(pool * 0.02);
    if (fee > 0) {
      remaining -= fee;
      timeline.at(
        laterThan(random, T, 1, 10),
        () => void transferCredits(ctx, { from: ownerInventory, to: { kind: 'registry' }, creditId: credit(), amount: tonnes(fee) }),
      );
    }
  }
  // a correction after review: part of the issuance is cancelled
  if (random.chance(0.05)) {
    const cancelled = wholeTonnes(pool * random.between(0.005, 0.03));
    if (cancelled > 0) {
      remaining -= cancelled;
      timeline.at(
        laterThan(random, T, 2, 60),
        () =>
          void cancelCredits(ctx, {
            from: ownerInventory,
            creditId: credit(),
            amount: tonnes(cancelled),
            reason: 'Cancelled at the request of the proponent',
          }),
      );
    }
  }
  // a reversal (fire, flood): buffer credits move to the adjustment account, part cancelled there
  if (plan.bufferGrams > 0 && random.chance(0.05)) {
    const moved = wholeTonnes(plan.bufferGrams * random.between(0.2, 0.6));
    if (moved > 0) {
      const movedAt = laterThan(random, T, 60, 500);
      timeline.at(
        movedAt,
        () =>
          void transferCredits(ctx, {
            from: { kind: 'buffer' },
            to: { kind: 'adjustment' },
            creditId: credit(),
            amount: tonnes(moved),
          }),
      );
      if (random.chance(0.5)) {
        const cancelled = wholeKilograms(moved * random.between(0.5, 1));
        if (cancelled > 0) {
          timeline.at(
            laterThan(random, movedAt, 20, 120),
            () =>
              void cancelCredits(ctx, {
                from: { kind: 'adjustment' },
                creditId: credit(),
                amount: tonnes(cancelled),
                reason: 'Reversal: buffer credits cancelled after a loss event',
              }),
          );
        }
      }
    }
  }

  // warehouse stock the proponent offers to apps (the showcase proponent always has some)
  const showcase = owner.id === orgs.showcaseProponent.id;
  if (owner.usesWarehouse && (showcase || random.chance(0.6))) {
    const deposit = Math.max(G, wholeTonnes(remaining * random.between(0.05, 0.2)));
    if (deposit <= remaining / 4) {
      remaining -= deposit;
      const depositAt = laterThan(random, T, 3, 60);
      timeline.at(depositAt, () =>
        run.ledger.move('deposit', credit(), ownerInventory, { kind: 'warehouse', organizationId: owner.id }, deposit),
      );
      if (!showcase && random.chance(0.1)) {
        const withdrawn = wholeTonnes(deposit / 2);
        if (withdrawn > 0) {
          timeline.at(
            laterThan(random, depositAt, 10, 200),
            () => void withdrawFromWarehouse(ctx, { organizationId: owner.id, creditId: credit(), amount: tonnes(withdrawn) }),
          );
        }
      }
    }
  }

  // ---- retirements ----
  // Spending bound: deposit <= remaining/4, and retirements plus what buyers keep (<= 1.3 x budget)
  // <= 0.715 x remaining, so the plan never overdraws the owner's inventory.
  const budget = Math.floor(remaining * random.between(0.25, 0.55));
  const count = Math.min(retirementCount, Math.floor(budget / KG / 2));
  if (count <= 0) return;
  const amounts = splitAmounts(random, budget, count);
  const buyerRetirements: number[] = [];
  const reasons = () => random.pick(RETIREMENT_REASONS);

  for (const amount of amounts) {
    const channel = random.weighted([
      ['buyer', 65],
      ['proponent', 15],
      ['onchain', 20],
    ] as const);
    if (channel === 'buyer') {
      buyerRetirements.push(amount);
    } else if (channel === 'proponent') {
      const input = {
        organizationId: owner.id,
        grams: amount,
        beneficiary: beneficiaryFor(random, owner),
        reason: reasons(),
        comment: random.chance(0.3) ? 'Retired on behalf of a customer' : '',
      };
      timeline.at(laterThan(random, T, 10, 900), () => void run.ledger.retireFromInventory({ ...input, creditId: credit() }));
    } else {
      // every wallet gets one before any gets a second
      const wallet = onchain.count < wallets.length ? wallets[onchain.count]! : random.pick(wallets);
      onchain.count++;
      timeline.at(laterThan(random, T, 5, 900), () => {
        wallet.retirements.push(
          run.ledger.retireOnchain({ walletAddress: wallet.address, fromOrganizationId: owner.id, creditId: credit(), grams: amount }),
        );
      });
    }
  }

  // Buyers purchase a block, then retire it in one to five retirements over the following year;
  // what they keep may go into their own warehouse.
  const buyers = buyerPicker(orgs);
  for (let i = 0; i < buyerRetirements.length;) {
    const group = buyerRetirements.slice(i, i + random.int(1, 5));
    i += group.length;
    const buyer = buyers.pick(random);
    const retired = group.reduce((a, b) => a + b, 0);
    const kept = wholeKilograms(retired * random.between(0, 0.3));
    const purchasedAt = laterThan(random, T, 5, 540);
    const buyerInventory = { kind: 'inventory' as const, organizationId: buyer.id };
    timeline.at(purchasedAt, () => run.ledger.move('transfer', credit(), ownerInventory, buyerInventory, retired + kept));
    for (const amount of group) {
      const input = {
        organizationId: buyer.id,
        grams: amount,
        beneficiary: beneficiaryFor(random, buyer),
        reason: reasons(),
        comment: random.chance(0.25) ? `FY${new Date(purchasedAt).getUTCFullYear()} climate programme` : '',
      };
      timeline.at(laterThan(random, purchasedAt, 0.2, 365), () => void run.ledger.retireFromInventory({ ...input, creditId: credit() }));
    }
    const deposit = buyer.usesWarehouse ? wholeKilograms(kept * random.between(0.3, 1)) : 0;
    if (deposit > 0) {
      timeline.at(laterThan(random, purchasedAt, 1, 30), () =>
        run.ledger.move('deposit', credit(), buyerInventory, { kind: 'warehouse', organizationId: buyer.id }, deposit),
      );
    }
  }
}

const pickers = new WeakMap<SeedOrganizations, ReturnType<typeof organizationPicker>>();
function buyerPicker(orgs: SeedOrganizations) {
  let picker = pickers.get(orgs);
  if (!picker) pickers.set(orgs, (picker = organizationPicker(orgs.buyers)));
  return picker;
}
