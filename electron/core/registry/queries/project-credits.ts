// The credit data of one project (4.4, GET /carbonCredits/projects/{id}): the project summary, and
// per vintage its summary and issuance events with their files and verification body.
import type { CreditEvent, CreditSummary, ProjectReference } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import { iso } from '@platform/clock';
import { sql, type Expression, type InferResult, type Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { MovementKind, RegistryTables } from '../schema';
import { projectReferenceOf } from '../present';
import { summarizeCredits, type CreditTotals } from './credit-summaries';
import { groupBy, idList } from './id-list';

export interface ProjectCredits {
  summary: CreditSummary;
  vintages: { events: CreditEvent[]; vintage: string; summary: CreditSummary }[];
  project: ProjectReference;
}

type Q = Kysely<RegistryTables>;

/** Grams of the credit `c` moved by movements of one kind (the movements_by_credit index), 0 if none. */
const movedOfKind = (q: Q, creditId: Expression<string>, kind: MovementKind) =>
  q.fn.coalesce(
    q
      .selectFrom('movements')
      .select((m) => m.fn.sum<number>('amount').as('sum'))
      .where('credit_id', '=', creditId)
      .where('kind', '=', sql.lit(kind)),
    sql.lit(0),
  );
/** One row per credit (token) of the projects, with its ledger totals. */
const creditTotals = (q: Q, ids: readonly string[]) =>
  q
    .selectFrom('credits as c')
    .select((eb) => [
      'c.project_id',
      'c.id',
      'c.type',
      'c.vintage',
      movedOfKind(q, eb.ref('c.id'), 'issue').as('issued'),
      movedOfKind(q, eb.ref('c.id'), 'cancel').as('cancelled'),
      movedOfKind(q, eb.ref('c.id'), 'retire').as('retired'),
    ])
    .where('c.project_id', 'in', idList(ids));
/** The issuance events of the projects' credits, with their verification body's name; ties in insertion order. */
const creditEvents = (q: Q, ids: readonly string[]) =>
  q
    .selectFrom('credits as c')
    .innerJoin('credit_events as e', 'e.credit_id', 'c.id')
    .innerJoin('organizations as o', 'o.id', 'e.verification_body_id')
    .select([
      'c.project_id',
      'e.id',
      'c.vintage',
      'e.created_at',
      'e.amount',
      'e.type',
      'e.credit_type',
      'e.monitoring_period_start',
      'e.monitoring_period_end',
      'e.verification_body_id',
      'o.full_name as verification_body_name',
    ])
    .where('c.project_id', 'in', idList(ids))
    .orderBy('c.project_id')
    .orderBy('e.created_at')
    .orderBy(sql`e.rowid`);
/** Files by their events' ids (credit_event_files_by_event, already in order), not by another join. */
const eventFiles = (q: Q, eventIds: readonly string[]) =>
  q
    .selectFrom('credit_event_files as f')
    .select(['f.id', 'f.event_id', 'f.file_name', 'f.size', 'f.url', 'f.type'])
    .where('f.event_id', 'in', idList(eventIds))
    .orderBy('f.event_id')
    .orderBy('f.position');

type CreditEventSelected = InferResult<ReturnType<typeof creditEvents>>[number];
type EventFileSelected = InferResult<ReturnType<typeof eventFiles>>[number];

export function projectCredits(ctx: RegistryContext, projectId: string): ProjectCredits {
  // the reference first: an unknown project is a 404 before anything else is read
  const project = projectReferenceOf(ctx, projectId);
  return projectCreditsOf(ctx, [project]).get(projectId)!;
}

/**
 * The credit data of several projects (a page of the changes feed) with one query per table for
 * all of them, not one per project; each answer equals `projectCredits` of that project.
 */
export function projectCreditsOf(ctx: RegistryContext, projects: readonly ProjectReference[]): Map<string, ProjectCredits> {
  const answers = new Map<string, ProjectCredits>();
  if (projects.length === 0) return answers;
  const { db } = ctx;
  const ids = projects.map((p) => p.id);
  const credits = groupBy(db.all(creditTotals(db.q, ids)), (c) => c.project_id);
  const events = groupBy(db.all(creditEvents(db.q, ids)), (e) => e.project_id);
  const eventIds = [...events.values()].flatMap((rows) => rows.map((e) => e.id));
  const files = groupBy(eventIds.length === 0 ? [] : db.all(eventFiles(db.q, eventIds)), (f) => f.event_id);

  for (const project of projects) {
    const projectTotals = credits.get(project.id) ?? [];
    const creditsByVintage = groupBy<CreditTotals & { vintage: string }, string>(projectTotals, (c) => c.vintage);
    const eventsByVintage = groupBy(events.get(project.id) ?? [], (e) => e.vintage);
    const vintages = [...creditsByVintage.keys()].sort().map((vintage) => ({
      events: (eventsByVintage.get(vintage) ?? []).map((e) => presentCreditEvent(ctx, e, files.get(e.id) ?? [])),
      vintage,
      summary: summarizeCredits(creditsByVintage.get(vintage) ?? []),
    }));
    answers.set(project.id, { summary: summarizeCredits(projectTotals), vintages, project });
  }
  return answers;
}

function presentCreditEvent(ctx: RegistryContext, e: CreditEventSelected, files: readonly EventFileSelected[]): CreditEvent {
  return {
    id: e.id,
    vintage: e.vintage,
    createdAt: iso(e.created_at),
    amount: gramsToTonnes(e.amount),
    type: e.type,
    creditType: e.credit_type,
    monitoringPeriodStart: iso(e.monitoring_period_start),
    monitoringPeriodEnd: iso(e.monitoring_period_end),
    files: files.map((f) => ({ fileName: f.file_name, id: f.id, size: f.size, url: f.url, type: f.type })),
    verificationBody: {
      id: e.verification_body_id,
      directoryUrl: `${ctx.urls.publicBaseUrl}/organizations/${e.verification_body_id}`,
      fullName: e.verification_body_name,
    },
  };
}
