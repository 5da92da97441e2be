// The credit data of one project (4.4, GET /carbonCredits/projects/{id}): the project summary, and
// per vintage its summary and issuance events with their files and verification body.
import type { CreditEvent, CreditSummary, ProjectReference } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import type { CreditType } from '@shared/registry/vocabulary';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { projectReferenceOf } from '../present';
import { summarizeCredits, type CreditTotals } from './credit-summaries';
import { groupBy, IN_ID_LIST, idListParam } from './id-list';

export interface ProjectCredits {
  summary: CreditSummary;
  vintages: { events: CreditEvent[]; vintage: string; summary: CreditSummary }[];
  project: ProjectReference;
}

interface CreditTotalsRow {
  project_id: string;
  id: string;
  type: CreditType;
  vintage: string;
  issued: number;
  cancelled: number;
  retired: number;
}

interface CreditEventRow {
  project_id: string;
  id: string;
  vintage: string;
  created_at: number;
  amount: number;
  type: string;
  credit_type: string;
  monitoring_period_start: number;
  monitoring_period_end: number;
  verification_body_id: string;
  verification_body_name: string;
}

type EventFileRow = Omit<RegistryTables['credit_event_files'], 'position'>;

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
  const ids = idListParam(projects.map((p) => p.id));
  // One row per credit (token) of the projects, with its ledger totals (movements_by_credit index).
  const credits = groupBy(
    db
      .prepare(
        `SELECT c.project_id, c.id, c.type, c.vintage,
           COALESCE((SELECT SUM(amount) FROM movements WHERE credit_id = c.id AND kind = 'issue'), 0) AS issued,
           COALESCE((SELECT SUM(amount) FROM movements WHERE credit_id = c.id AND kind = 'cancel'), 0) AS cancelled,
           COALESCE((SELECT SUM(amount) FROM movements WHERE credit_id = c.id AND kind = 'retire'), 0) AS retired
         FROM credits c WHERE c.project_id ${IN_ID_LIST}`,
      )
      .all(ids) as CreditTotalsRow[],
    (c) => c.project_id,
  );
  const events = groupBy(
    db
      .prepare(
        `SELECT c.project_id, e.id, c.vintage, e.created_at, e.amount, e.type, e.credit_type, e.monitoring_period_start,
           e.monitoring_period_end, e.verification_body_id, o.full_name AS verification_body_name
         FROM credits c JOIN credit_events e ON e.credit_id = c.id JOIN organizations o ON o.id = e.verification_body_id
         WHERE c.project_id ${IN_ID_LIST} ORDER BY c.project_id, e.created_at, e.rowid`,
      )
      .all(ids) as CreditEventRow[],
    (e) => e.project_id,
  );
  // Files by their events' ids (credit_event_files_by_event, already in order), not by another join.
  const eventIds = [...events.values()].flatMap((rows) => rows.map((e) => e.id));
  const files = groupBy(
    eventIds.length === 0
      ? []
      : (db
          .prepare(
            `SELECT f.id, f.event_id, f.file_name, f.size, f.url, f.type FROM credit_event_files f
             WHERE f.event_id ${IN_ID_LIST} ORDER BY f.event_id, f.position`,
          )
          .all(idListParam(eventIds)) as EventFileRow[]),
    (f) => f.event_id,
  );

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

function presentCreditEvent(ctx: RegistryContext, e: CreditEventRow, files: readonly EventFileRow[]): CreditEvent {
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
