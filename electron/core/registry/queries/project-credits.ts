// The credit data of one project (4.4, GET /carbonCredits/projects/{id}): the project summary, and
// per vintage its summary and issuance events with their files and verification body.
import type { CreditEvent, CreditSummary, ProjectReference } from '../../../../shared/registry/resources';
import { gramsToTonnes } from '../../../../shared/registry/amounts';
import type { CreditType } from '../../../../shared/registry/vocabulary';
import { iso } from '../../clock';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { projectReferenceOf } from '../present';
import { summarizeCredits, type CreditTotals } from './credit-summaries';
import { groupBy } from './id-list';

export interface ProjectCredits {
  summary: CreditSummary;
  vintages: { events: CreditEvent[]; vintage: string; summary: CreditSummary }[];
  project: ProjectReference;
}

interface CreditTotalsRow {
  id: string;
  type: CreditType;
  vintage: string;
  issued: number;
  cancelled: number;
  retired: number;
}

interface CreditEventRow {
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
  const { db } = ctx;
  // One row per credit (token) of the project, with its ledger totals (movements_by_credit index).
  const credits = db
    .prepare(
      `SELECT c.id, c.type, c.vintage,
         COALESCE((SELECT SUM(amount) FROM movements WHERE credit_id = c.id AND kind = 'issue'), 0) AS issued,
         COALESCE((SELECT SUM(amount) FROM movements WHERE credit_id = c.id AND kind = 'cancel'), 0) AS cancelled,
         COALESCE((SELECT SUM(amount) FROM movements WHERE credit_id = c.id AND kind = 'retire'), 0) AS retired
       FROM credits c WHERE c.project_id = ?`,
    )
    .all(projectId) as CreditTotalsRow[];
  const events = db
    .prepare(
      `SELECT e.id, c.vintage, e.created_at, e.amount, e.type, e.credit_type, e.monitoring_period_start, e.monitoring_period_end,
         e.verification_body_id, o.full_name AS verification_body_name
       FROM credits c JOIN credit_events e ON e.credit_id = c.id JOIN organizations o ON o.id = e.verification_body_id
       WHERE c.project_id = ? ORDER BY e.created_at, e.rowid`,
    )
    .all(projectId) as CreditEventRow[];
  const files = groupBy(
    db
      .prepare(
        `SELECT f.id, f.event_id, f.file_name, f.size, f.url, f.type
         FROM credits c JOIN credit_events e ON e.credit_id = c.id JOIN credit_event_files f ON f.event_id = e.id
         WHERE c.project_id = ? ORDER BY f.event_id, f.position`,
      )
      .all(projectId) as EventFileRow[],
    (f) => f.event_id,
  );

  const creditsByVintage = groupBy<CreditTotals & { vintage: string }, string>(credits, (c) => c.vintage);
  const eventsByVintage = groupBy(events, (e) => e.vintage);
  const vintages = [...creditsByVintage.keys()].sort().map((vintage) => ({
    events: (eventsByVintage.get(vintage) ?? []).map((e) => presentCreditEvent(ctx, e, files.get(e.id) ?? [])),
    vintage,
    summary: summarizeCredits(creditsByVintage.get(vintage) ?? []),
  }));
  return { summary: summarizeCredits(credits), vintages, project: projectReferenceOf(ctx, projectId) };
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
