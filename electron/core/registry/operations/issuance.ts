// Issuance: new credits of a project's vintage, split between a proponent's inventory (the owner's
// unless another proponent of the project is named) and the buffer account (the registry's share
// by default), recorded as an issuance event.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { z } from 'zod';
import { alpha3Of } from '@shared/registry/countries';
import { formatCreditId, formatSerialization } from '@shared/registry/identifiers';
import { ISSUABLE_PROJECT_STATUSES } from '@shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { grams, parseInput } from '../input';
import { accountId, appendMovement } from '../ledger';
import { readSettings } from '../settings';
import { requireOrganization } from './lookups';
import { issueCreditsInput } from '@shared/registry/operator-inputs';
export { issueCreditsInput };

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
    const project = db.first(
      db.q
        .selectFrom('projects')
        .select(['id', 'num', 'status', 'country_code', 'type_id', 'organization_id', 'contract_address'])
        .where('id', '=', o.projectId),
    );
    if (!project) throw notFound(`Project ${o.projectId} not found`);
    if (!ISSUABLE_PROJECT_STATUSES.includes(project.status)) {
      throw conflict(`Credits can be issued only for ${ISSUABLE_PROJECT_STATUSES.join(' or ')} projects; this one is ${project.status}`);
    }
    const receiverId = o.receivingOrganizationId ?? project.organization_id;
    const proponent = requireOrganization(ctx, receiverId);
    if (
      receiverId !== project.organization_id &&
      !db.first(
        db.q
          .selectFrom('project_organizations')
          .select('project_id')
          .where('project_id', '=', project.id)
          .where('organization_id', '=', receiverId)
          .where('role', '=', 'proponent'),
      )
    ) {
      throw conflict(`Credits can be issued only to a proponent of the project; ${receiverId} is not one`);
    }
    if (proponent.is_verified !== 1) {
      throw conflict(`Credits can be issued only to a verified organization; ${receiverId} has not passed business verification`);
    }
    requireOrganization(ctx, o.verificationBodyId);
    const now = ctx.clock.now();
    let credit = db.first(
      db.q
        .selectFrom('credits')
        .select(['id', 'serialization'])
        .where('project_id', '=', project.id)
        .where('vintage', '=', o.vintage)
        .where('type', '=', o.type),
    );
    if (!credit) {
      const highest = db.first(
        db.q
          .selectFrom('credits')
          .select((eb) => eb.fn.max('token_id').as('n'))
          .where('token_address', '=', project.contract_address),
      );
      const tokenId = (highest?.n ?? 0) + 1;
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
      db.run(
        db.q.insertInto('credits').values({
          id,
          project_id: project.id,
          token_address: project.contract_address,
          token_id: tokenId,
          type: o.type,
          vintage: o.vintage,
          serialization,
          created_at: now,
        }),
      );
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
        to: accountId(ctx, { kind: 'inventory', organizationId: receiverId }),
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
    db.run(
      db.q.insertInto('credit_events').values({
        id: eventId,
        credit_id: credit.id,
        type: 'issuance',
        credit_type: 'carbon',
        amount,
        created_at: now,
        monitoring_period_start: o.monitoringPeriodStart,
        monitoring_period_end: o.monitoringPeriodEnd,
        verification_body_id: o.verificationBodyId,
        movement_id: movementId,
      }),
    );
    o.files.forEach((f, i) => {
      db.run(
        db.q
          .insertInto('credit_event_files')
          .values({ id: ctx.newId(), event_id: eventId, file_name: f.fileName, size: f.size, url: f.url, type: f.type, position: i }),
      );
    });
    return { creditId: credit.id, serialization: credit.serialization, eventId, toInventory, toBuffer };
  });
}
