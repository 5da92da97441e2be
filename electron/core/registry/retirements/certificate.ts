// What a retirement's certificate shows, from its row (the PDF itself is drawn by
// electron/core/registry/certificates). Only claimed retirements have a certificate (compatibility.md).
import { formatTonnesForPeople } from '@shared/registry/amounts';
import { iso } from '@platform/clock';
import type { CertificateInput } from '../certificates/types';
import type { RegistryContext } from '../context';
import { conflict, notFound } from '../errors';
import { isRetirementClaimed, projectReferenceOf, retirementRow, type SelectedRetirement } from '../present';
import { readSettings } from '../settings';
import type { CertificateTransparency } from '../certificates/types';
import { checkpointCovering, signCheckpoint } from '../transparency/checkpoints';
import { logKey } from '../transparency/keys';
import { findLeafIndex } from '../transparency/proofs';

/** The retirement's leaf and the first checkpoint that includes it (signed now if none does yet). */
function transparencyOf(ctx: RegistryContext, retirementId: string): CertificateTransparency | undefined {
  const leafIndex = findLeafIndex(ctx, 'retirement', retirementId);
  if (leafIndex === undefined) return undefined;
  const checkpoint = checkpointCovering(ctx, leafIndex) ?? signCheckpoint(ctx);
  return {
    origin: logKey(ctx).name,
    leafIndex,
    checkpointSize: checkpoint.size,
    checkpointRoot: checkpoint.root,
    checkpointTime: iso(checkpoint.at),
    apiBaseUrl: ctx.urls.apiBaseUrl,
  };
}

export function certificateInputOf(ctx: RegistryContext, row: SelectedRetirement): CertificateInput {
  const project = projectReferenceOf(ctx, row.project_id);
  const transparency = transparencyOf(ctx, row.id);
  return {
    registryName: readSettings(ctx).name,
    retirementId: row.id,
    retiredAt: iso(row.created_at),
    // The one way people read tonnes (grouped, exact), as the desk shows them.
    amountTonnes: formatTonnesForPeople(row.amount),
    beneficiary: row.beneficiary ?? '',
    reason: row.reason ?? '',
    comment: row.comment ?? '',
    retiringOrganization: row.org_full_name ?? '',
    // a finalized on-chain retirement was made by its owner wallet, printed under its own label
    ...(row.owner_wallet ? { retiringWallet: row.owner_wallet } : {}),
    projectName: project.fullName,
    projectNum: project.num,
    serialization: row.serialization,
    vintage: row.vintage,
    verifyUrl: `${ctx.urls.publicBaseUrl}/retirements/${row.id}`,
    ...(ctx.urls.publicBaseUrlIsPlaceholder ? { verifyUrlIsPlaceholder: true as const } : {}),
    ...(transparency ? { transparency } : {}),
  };
}

/** The certificate input of a retirement that may have one: unknown → 404, unclaimed → 409. */
export function certificateInputFor(ctx: RegistryContext, retirementId: string): CertificateInput {
  const row = retirementRow(ctx, retirementId);
  if (!row) throw notFound(`Retirement ${retirementId} not found`);
  if (!isRetirementClaimed(row)) {
    throw conflict(`Retirement ${retirementId} is not claimed by a verified organization or its owner wallet, so it has no certificate`);
  }
  return certificateInputOf(ctx, row);
}

/** `retirement-<id>.pdf`: ids are UUIDs, so the name needs no quoting in Content-Disposition. */
export function certificateFilename(retirementId: string): string {
  return `retirement-${retirementId.replace(/[^A-Za-z0-9-]/g, '')}.pdf`;
}
