// Issuance: new credits of a project's vintage, split between a proponent's inventory (the owner's
// unless another proponent of the project is named) and the buffer account (the registry's share
// by default), recorded as an issuance event.
// What it checks first is in issuance-project.ts; the credit it adds to, found or created, in
// issuance-credit.ts.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { z } from 'zod';
import type { RegistryContext } from '../context';
import { badRequest } from '../errors';
import { grams, parseInput } from '../input';
import { accountId, appendMovement } from '../ledger';
import { readSettings } from '../settings';
import { requireOrganization } from './lookups';
import { creditToIssue } from './issuance-credit';
import { requireIssuableProject, requireIssuanceReceiver } from './issuance-project';
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
    const project = requireIssuableProject(ctx, o.projectId);
    const receiverId = o.receivingOrganizationId ?? project.organization_id;
    requireIssuanceReceiver(ctx, project, receiverId, o.receivingOrganizationId !== undefined);
    requireOrganization(ctx, o.verificationBodyId);
    const now = ctx.clock.now();
    const credit = creditToIssue(ctx, project, o, settings.code, now);
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
