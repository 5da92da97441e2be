// The demo registry's organizations: the registry operator, project proponents in many countries
// (some without business verification, some not public), validation/verification bodies and
// buyers. About 30 per scale unit. Created first, through createOrganization (operations/organizations.ts).
import { createOrganization } from '../operations/organizations';
import { BUYER_INDUSTRIES, NAME_PARTS } from './catalog';
import { HOST_COUNTRIES, LEGAL_SUFFIX, MARKET_COUNTRIES } from './places';
import { DAY_MS, slug, timeBetween, utc, type SeedRun } from './run';
import { readSettings } from '../settings';
import { WeightedPicker } from './random';

export interface SeedOrganization {
  id: string;
  fullName: string;
  countryCode: string;
  verified: boolean;
  isPublic: boolean;
  /** Keeps part of its credits in its warehouse for apps to sell. */
  usesWarehouse: boolean;
  /** How often it is picked (large developers and buyers appear more). */
  weight: number;
}

export interface SeedOrganizations {
  registryOperatorId: string;
  proponents: SeedOrganization[];
  verificationBodies: SeedOrganization[];
  buyers: SeedOrganization[];
  /** A verified, public proponent that always has credits in its warehouse (the demo app's first installation). */
  showcaseProponent: SeedOrganization;
  /** A verified buyer (the demo app's second installation). */
  showcaseBuyer: SeedOrganization;
}

const PER_SCALE = { proponents: 15, verificationBodies: 4, buyers: 11 };

function uniqueName(run: SeedRun, taken: Set<string>, make: () => string): string {
  for (let attempt = 0; attempt < 20; attempt++) {
    const name = make();
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
  // large scales exhaust the combinations: number the rest
  let n = 2;
  const base = make();
  while (taken.has(`${base} ${n}`)) n++;
  taken.add(`${base} ${n}`);
  return `${base} ${n}`;
}

function address(run: SeedRun, city: string): string {
  const streets = [
    'Main Road',
    'Station Street',
    'Harbour Way',
    'Park Avenue',
    'Market Street',
    'Riverside Drive',
    'Hill Road',
    'Mill Lane',
  ];
  return `${run.random.int(1, 240)} ${run.random.pick(streets)}, ${city}`;
}

function create(
  run: SeedRun,
  taken: Set<string>,
  kind: 'projectProponent' | 'validationVerificationBody' | 'buyer',
  options: { verified: boolean; isPublic: boolean; usesWarehouse: boolean },
): SeedOrganization {
  const { random } = run;
  let countryCode: string;
  let city: string;
  let fullName: string;
  let industry: { code: string; name: string };
  if (kind === 'projectProponent') {
    countryCode = random.pick(Object.keys(HOST_COUNTRIES));
    city = random.pick(HOST_COUNTRIES[countryCode]!).city;
    fullName = uniqueName(run, taken, () => {
      const lead = random.pick(NAME_PARTS.proponentLead);
      const core = random.pick(NAME_PARTS.proponentCore);
      const tail = random.chance(0.6) ? ` ${random.pick(NAME_PARTS.proponentTail)}` : '';
      const suffix = LEGAL_SUFFIX[countryCode] ?? 'Ltd';
      return suffix === 'PT' ? `PT ${lead} ${core}${tail}` : `${lead} ${core}${tail} ${suffix}`;
    });
    industry = { code: 'D35', name: 'Environmental and climate project development' };
  } else {
    countryCode = random.pick(Object.keys(MARKET_COUNTRIES));
    city = random.pick(MARKET_COUNTRIES[countryCode]!);
    const suffix = LEGAL_SUFFIX[countryCode] ?? 'Ltd';
    if (kind === 'validationVerificationBody') {
      fullName = uniqueName(
        run,
        taken,
        () => `${random.pick(NAME_PARTS.vvbLead)} ${random.pick(NAME_PARTS.vvbCore)} ${random.pick(NAME_PARTS.vvbTail)} ${suffix}`,
      );
      industry = { code: 'M71', name: 'Technical testing and analysis' };
    } else {
      const core = random.pick(NAME_PARTS.buyerCore);
      fullName = uniqueName(run, taken, () => `${random.pick(NAME_PARTS.buyerLead)} ${core} ${suffix}`);
      industry = BUYER_INDUSTRIES[core]!;
    }
  }
  const id = run.ctx.newId();
  const domain = slug(fullName.replace(/\b(GmbH|SAS|Ltd|B\.V\.|AB|AG|Inc\.|K\.K\.|Pte\. Ltd\.|AS|Pty Ltd|ApS|Oy|PT)\b/g, ''));
  run.clock.set(timeBetween(random, utc(2014, 2), utc(2015, 12, 20)));
  createOrganization(run.ctx, {
    id,
    fullName,
    type: kind,
    countryCode,
    city,
    zip: String(random.int(10000, 99999)),
    physicalAddress: address(run, city),
    registrationNumber: `${countryCode}-${random.int(100000, 999999)}`,
    website: `https://www.${domain}.example`,
    logo: `https://files.rdr-demo.example/logos/${domain}.png`,
    organizationIndustries: industry,
    isPublic: options.isPublic,
    verified: options.verified,
  });
  return { id, fullName, countryCode, ...options, weight: random.chance(0.2) ? random.int(4, 8) : random.int(1, 3) };
}

export function createDemoOrganizations(run: SeedRun): SeedOrganizations {
  const { random, scale } = run;
  const taken = new Set<string>();

  const registryOperatorId = run.ctx.newId();
  run.clock.set(utc(2014, 1, 6) + 9 * 60 * 60 * 1000);
  createOrganization(run.ctx, {
    id: registryOperatorId,
    fullName: readSettings(run.ctx).name,
    type: 'registryOperator',
    countryCode: 'CH',
    city: 'Zurich',
    zip: '8001',
    physicalAddress: 'Bahnhofstrasse 10, Zurich',
    registrationNumber: 'CHE-100.200.300',
    website: 'https://registry.example.org',
    logo: 'https://files.rdr-demo.example/logos/registry.png',
    organizationIndustries: { code: 'M70', name: 'Registry services' },
    verified: true,
    isRegistry: true,
  });

  const proponents: SeedOrganization[] = [];
  for (let i = 0; i < PER_SCALE.proponents * scale; i++) {
    // The first is the showcase: verified, public, with a warehouse. Of the rest, about one in five
    // has not passed business verification and one in seven is not public.
    const showcase = i === 0;
    const verified = showcase || !random.chance(0.2);
    proponents.push(
      create(run, taken, 'projectProponent', {
        verified,
        isPublic: showcase || !random.chance(0.14),
        usesWarehouse: showcase || (verified && random.chance(0.5)),
      }),
    );
  }
  proponents[0]!.weight = 6;

  const verificationBodies: SeedOrganization[] = [];
  for (let i = 0; i < PER_SCALE.verificationBodies * scale; i++) {
    verificationBodies.push(create(run, taken, 'validationVerificationBody', { verified: true, isPublic: true, usesWarehouse: false }));
  }

  const buyers: SeedOrganization[] = [];
  for (let i = 0; i < PER_SCALE.buyers * scale; i++) {
    const showcase = i === 0;
    const verified = showcase || !random.chance(0.18);
    buyers.push(
      create(run, taken, 'buyer', {
        verified,
        isPublic: showcase || !random.chance(0.3),
        usesWarehouse: showcase || (verified && random.chance(0.35)),
      }),
    );
  }

  // Keep the clock inside the story even if the last organization drew an early date.
  run.clock.set(utc(2015, 12, 31) + DAY_MS / 2);
  return { registryOperatorId, proponents, verificationBodies, buyers, showcaseProponent: proponents[0]!, showcaseBuyer: buyers[0]! };
}

/** Weighted picks among organizations (large developers and buyers appear more often). */
export const organizationPicker = (from: readonly SeedOrganization[]) => new WeightedPicker(from, (o) => o.weight);
