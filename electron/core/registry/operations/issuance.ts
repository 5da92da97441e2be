// Issuance: new credits of a project's vintage, split between the proponent's inventory and the
// buffer account (the registry's share by default), recorded as an issuance event.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema stands beside it (the CLI builds its flags from it).
import { z } from 'zod';
import { alpha3Of } from '../../../../shared/registry/countries';
import { formatCreditId, formatSerialization } from '../../../../shared/registry/identifiers';
import { CREDIT_TYPES, ISSUABLE_PROJECT_STATUSES, type ProjectStatus } from '../../../../shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { dateInput, grams, parseInput, requiredText, tonnesInput } from '../input';
import { accountId, appendMovement } from '../ledger';
import { readSettings } from '../settings';
import { requireOrganization } from './lookups';

export const issueCreditsInput = z.object({
  projectId: requiredText(),
  vintage: z.string().regex(/^\d{4}$/, 'must be a four-digit year'),
  type: z.enum(CREDIT_TYPES).default('exPost'),
  amount: tonnesInput,
  /** Share to the buffer account in basis points; the registry default when omitted. */
  bufferBasisPoints: z.number().int().min(0).max(10_000).optional(),
  monitoringPeriodStart: dateInput,
  monitoringPeriodEnd: dateInput,
  verificationBodyId: requiredText(),
  files: z
    .array(z.object({ fileName: requiredText(300), size: z.number().int().nonnegative(), url: requiredText(1000), type: requiredText(60) }))
    .default([]),
});

export interface IssueResult {
  creditId: string;
  serialization: string;
  eventId: string;
  /** Grams to the proponent's inventory and to the buffer account. */
  toInventory: number;
  toBuffer: number;
}

export function issueCredits(ctx: RegistryContext, input: z.input<typeof issueCreditsInput>): IssueResult {
  const o = parseInput(issueCreditsInput, input);
  const amount = grams(o.amount);
  if (o.monitoringPeriodEnd < o.monitoringPeriodStart) throw badRequest('monitoringPeriodEnd: must not be before monitoringPeriodStart');
  const { db } = ctx;
  const settings = readSettings(ctx);
  return db.transaction(() => {
    const project = db
      .prepare('SELECT id, num, status, country_code, type_id, organization_id, contract_address FROM projects WHERE id = ?')
      .get(o.projectId) as
      | {
          id: string;
          num: string;
          status: ProjectStatus;
          country_code: string | null;
          type_id: string;
          organization_id: string;
          contract_address: string;
        }
      | undefined;
    if (!project) throw notFound(`Project ${o.projectId} not found`);
    if (!ISSUABLE_PROJECT_STATUSES.includes(project.status)) {
      throw conflict(`Credits can be issued only for ${ISSUABLE_PROJECT_STATUSES.join(' or ')} projects; this one is ${project.status}`);
    }
    requireOrganization(ctx, o.verificationBodyId);
    const now = ctx.clock.now();
    let credit = db
      .prepare('SELECT id, serialization FROM credits WHERE project_id = ? AND vintage = ? AND type = ?')
      .get(project.id, o.vintage, o.type) as { id: string; serialization: string } | undefined;
    if (!credit) {
      const tokenId =
        ((
          db.prepare('SELECT MAX(token_id) AS n FROM credits WHERE token_address = ?').get(project.contract_address) as { n: number | null }
        ).n ?? 0) + 1;
      const id = formatCreditId(o.type, tokenId, project.contract_address);
      const serialization = formatSerialization({
        registryCode: settings.code,
        countryAlpha3: alpha3Of(project.country_code ?? '') ?? 'XXX',
        category: project.type_id === 'removal' ? 1 : project.type_id === 'avoidance' ? 2 : 0,
        projectNum: project.num,
        tokenId,
        type: o.type,
        batch: 0,
        vintage: o.vintage,
      });
      db.prepare(
        'INSERT INTO credits (id, project_id, token_address, token_id, type, vintage, serialization, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(id, project.id, project.contract_address, tokenId, o.type, o.vintage, serialization, now);
      credit = { id, serialization };
    }
    const basisPoints = o.bufferBasisPoints ?? settings.bufferBasisPoints;
    const toBuffer = Math.floor((amount * basisPoints) / 10_000);
    const toInventory = amount - toBuffer;
    const eventId = ctx.newId();
    let movementId: number | null = null;
    if (toInventory > 0) {
      movementId = appendMovement(ctx, {
        creditId: credit.id,
        kind: 'issue',
        to: accountId(ctx, { kind: 'inventory', organizationId: project.organization_id }),
        amount: toInventory,
        reference: eventId,
      });
    }
    if (toBuffer > 0) {
      const bufferMovement = appendMovement(ctx, {
        creditId: credit.id,
        kind: 'issue',
        to: accountId(ctx, { kind: 'buffer' }),
        amount: toBuffer,
        reference: eventId,
      });
      movementId ??= bufferMovement;
    }
    db.prepare(
      `INSERT INTO credit_events (id, credit_id, type, credit_type, amount, created_at, monitoring_period_start, monitoring_period_end,
         verification_body_id, movement_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      eventId,
      credit.id,
      'issuance',
      'carbon',
      amount,
      now,
      o.monitoringPeriodStart,
      o.monitoringPeriodEnd,
      o.verificationBodyId,
      movementId,
    );
    const addFile = db.prepare(
      'INSERT INTO credit_event_files (id, event_id, file_name, size, url, type, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    o.files.forEach((f, i) => addFile.run(ctx.newId(), eventId, f.fileName, f.size, f.url, f.type, i));
    return { creditId: credit.id, serialization: credit.serialization, eventId, toInventory, toBuffer };
  });
}
