// The demo registry's projects: about 100 per scale unit, of many archetypes in many countries,
// each created as a draft and moved through its review by changeProjectStatus (operations/projects.ts), so every
// status carries its status_change events. Planned here, run in date order by the timeline.
import { countryName } from '@shared/registry/countries';
import type { ProjectStatus } from '@shared/registry/vocabulary';
import { changeProjectStatus, createProject } from '../operations/projects';
import { OTHER_BENEFITS } from './catalog';
import { ARCHETYPES, PROJECT_TYPES, SECTORS, type Archetype } from './archetypes';
import { HOST_COUNTRIES, type Place } from './places';
import { organizationPicker, type SeedOrganization, type SeedOrganizations } from './organizations';
import { DAY_MS, laterThan, timeBetween, utc, type SeedRun } from './run';

export interface SeedProject {
  id: string;
  num: string;
  fullName: string;
  archetype: Archetype;
  owner: SeedOrganization;
  verificationBodyIds: string[];
  finalStatus: ProjectStatus;
  /** Year whose 1 January starts the crediting period. */
  creditingYear: number;
  /** When it became validated / registered (undefined when it never did). */
  validatedAt?: number;
  registeredAt?: number;
  /** Whole tonnes a year. */
  annualTonnes: number;
}

const FILES = 'https://files.rdr-demo.example/projects';

/** The share of projects ending in each status. */
const STATUS_MIX: readonly (readonly [ProjectStatus, number])[] = [
  ['registered', 57],
  ['validated', 17],
  ['draft', 10],
  ['submitted', 8],
  ['rejected', 5],
  ['withdrawn', 3],
];

/** Review path from draft to each final status, and the days each step takes. */
const PATHS: Record<ProjectStatus, readonly (readonly [ProjectStatus, number, number])[]> = {
  draft: [],
  submitted: [['submitted', 20, 90]],
  validated: [
    ['submitted', 20, 90],
    ['validated', 90, 270],
  ],
  registered: [
    ['submitted', 20, 90],
    ['validated', 90, 270],
    ['registered', 30, 120],
  ],
  rejected: [
    ['submitted', 20, 90],
    ['rejected', 90, 240],
  ],
  withdrawn: [
    ['submitted', 20, 90],
    ['validated', 90, 270],
    ['withdrawn', 60, 400],
  ],
};

/** When projects of each final status were created: later stages are older projects. */
const CREATED_BETWEEN: Record<ProjectStatus, readonly [number, number]> = {
  registered: [utc(2015, 3), utc(2023, 6)],
  validated: [utc(2021, 1), utc(2024, 6)],
  submitted: [utc(2024, 3), utc(2025, 6)],
  draft: [utc(2024, 6), utc(2025, 9)],
  rejected: [utc(2017, 1), utc(2024, 6)],
  withdrawn: [utc(2016, 1), utc(2023, 1)],
};

const ROMAN = ['', '', ' II', ' III', ' IV', ' V', ' VI', ' VII', ' VIII', ' IX', ' X'];

function projectName(run: SeedRun, names: Map<string, number>, place: Place, archetype: Archetype): string {
  const base = `${place.city} ${archetype.name}`;
  const n = (names.get(base) ?? 0) + 1;
  names.set(base, n);
  return n === 1 ? base : `${base}${ROMAN[n] ?? ` Phase ${n}`}`;
}

function jitter(run: SeedRun, value: number, spread: number): number {
  return Math.round((value + run.random.between(-spread, spread)) * 10_000) / 10_000;
}

function describe(
  run: SeedRun,
  archetype: Archetype,
  place: Place,
  countryCode: string,
  owner: SeedOrganization,
): { description: string; short: string } {
  const size = archetype.size(run.random.int(10, 400));
  const country = countryName(countryCode) ?? countryCode;
  const short = `${archetype.name} covering ${size} near ${place.city}, ${country}.`;
  const description =
    `${owner.fullName} ${archetype.activity} around ${place.city} (${place.state}, ${country}). ` +
    `The project covers ${size} and is monitored under ${archetype.methodology.id} (${archetype.methodology.title}). ` +
    `${PROJECT_TYPES[archetype.type].description} ` +
    'Credit revenue funds operations, monitoring and a community benefit-sharing plan agreed with local representatives.';
  return { description, short };
}

export function planDemoProjects(run: SeedRun, orgs: SeedOrganizations): SeedProject[] {
  const { random, timeline } = run;
  const names = new Map<string, number>();
  const owners = organizationPicker(orgs.proponents);
  const projects: SeedProject[] = [];
  const count = 100 * run.scale;

  for (let i = 0; i < count; i++) {
    // The showcase proponent's first projects are registered early, so it always has credits.
    const showcase = i < 3;
    const owner = showcase ? orgs.showcaseProponent : owners.pick(random);
    const finalStatus = showcase ? 'registered' : random.weighted(STATUS_MIX);
    const archetype = showcase ? ARCHETYPES[i === 0 ? 0 : i === 1 ? 10 : 6]! : random.pick(ARCHETYPES);
    const countryCode = random.pick(archetype.countries);
    const place = random.pick(HOST_COUNTRIES[countryCode]!);
    const fullName = projectName(run, names, place, archetype);
    const [from, to] = showcase ? [utc(2015, 6), utc(2016, 6)] : CREATED_BETWEEN[finalStatus];
    const createdAt = timeBetween(random, from, to);
    const id = run.ctx.newId();
    const num = String(1000 + i);
    const validators = random.sample(orgs.verificationBodies, random.chance(0.25) ? 2 : 1);
    const coProponents = random.chance(0.15) ? [owners.pick(random)].filter((o) => o.id !== owner.id) : [];
    const { description, short } = describe(run, archetype, place, countryCode, owner);
    const annualTonnes = random.int(archetype.annual[0], archetype.annual[1]);
    const startDate = createdAt - random.int(30, 400) * DAY_MS;
    const creditingYear = Math.max(2016, new Date(startDate).getUTCFullYear() + (random.chance(0.3) ? 1 : 0));
    const base = `${FILES}/${num}`;
    const hasKml =
      archetype.sector === 'forestry' || archetype.sector === 'coastal' || archetype.sector === 'agriculture'
        ? random.chance(0.6)
        : random.chance(0.1);
    const benefitCount = random.int(2, 5);

    const project: SeedProject = {
      id,
      num,
      fullName,
      archetype,
      owner,
      verificationBodyIds: validators.map((v) => v.id),
      finalStatus,
      creditingYear,
      annualTonnes,
    };
    projects.push(project);

    // Every random choice is drawn now, while planning; the timeline only replays them.
    const input: Parameters<typeof createProject>[1] = {
      id,
      num,
      fullName,
      description,
      shortDescription: short,
      status: 'draft',
      startDate: new Date(startDate).toISOString(),
      creditingPeriodStartDate: new Date(utc(creditingYear)).toISOString(),
      estimatedAnnualMitigations: estimates(run, annualTonnes),
      city: place.city,
      ...(random.chance(0.7) ? { thumbnail: `${base}/thumbnail.jpg` } : {}),
      countryCode,
      state: place.state,
      sector: { id: archetype.sector, title: SECTORS[archetype.sector] },
      methodology: archetype.methodology,
      type: { id: archetype.type, ...PROJECT_TYPES[archetype.type] },
      ...(random.chance(0.9) ? { location: { lat: jitter(run, place.lat, 0.4), lng: jitter(run, place.lng, 0.4) } } : {}),
      organizationId: owner.id,
      proponentIds: coProponents.map((o) => o.id),
      validatorIds: validators.map((v) => v.id),
      documentation: documentsFor(run, base, finalStatus),
      ...(hasKml ? { kmlFile: { uri: `${base}/boundary.kml`, type: 'kml', name: `${fullName} boundary`, isPublic: true } } : {}),
      otherBenefits: random.sample(OTHER_BENEFITS, benefitCount).map((b) => ({ ...b, checked: random.chance(0.8) })),
    };
    timeline.at(createdAt, () => void createProject(run.ctx, input));

    let at = createdAt;
    for (const [status, minDays, maxDays] of PATHS[finalStatus]) {
      at = laterThan(random, at, minDays, maxDays);
      if (status === 'validated') project.validatedAt = at;
      if (status === 'registered') project.registeredAt = at;
      timeline.at(at, () => void changeProjectStatus(run.ctx, { projectId: id, status }));
    }
  }
  return projects;
}

/** Estimated annual mitigations: a few years of estimates, sometimes with a missing year (null), as real records have. */
function estimates(run: SeedRun, annualTonnes: number): (string | null)[] {
  const years = run.random.int(3, 10);
  return Array.from({ length: years }, () =>
    run.random.chance(0.08) ? null : String(Math.round(annualTonnes * run.random.between(0.8, 1.2))),
  );
}

function documentsFor(run: SeedRun, base: string, status: ProjectStatus) {
  const docs = [{ uri: `${base}/project-design.pdf`, type: 'projectDesign', name: 'Project design document', isPublic: true }];
  if (status !== 'draft')
    docs.push({ uri: `${base}/land-tenure.pdf`, type: 'other', name: 'Land tenure and consent records', isPublic: false });
  if (status === 'validated' || status === 'registered' || status === 'withdrawn') {
    docs.push({ uri: `${base}/validation-report.pdf`, type: 'validationReport', name: 'Validation report', isPublic: true });
  }
  if (status === 'registered' && run.random.chance(0.8)) {
    docs.push({ uri: `${base}/monitoring-report-1.pdf`, type: 'monitoringReport', name: 'Monitoring report 1', isPublic: true });
  }
  return docs;
}
