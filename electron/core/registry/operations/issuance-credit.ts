// The credit an issuance adds to: the project's credit of that vintage and type, or a new one with
// the next token id of the project's contract and its serialization.
import type { z } from 'zod';
import { alpha3Of } from '@shared/registry/countries';
import { formatCreditId, formatSerialization } from '@shared/registry/identifiers';
import type { issueCreditsInput } from '@shared/registry/operator-inputs';
import type { RegistryContext } from '@registry/context';
import type { IssuableProject } from './issuance-project';

type CreditKey = Pick<z.output<typeof issueCreditsInput>, 'type' | 'vintage'>;

/** Finds or creates (at `now`) the credit; `registryCode` is the registry's, for the serialization. */
export function creditToIssue(
  ctx: RegistryContext,
  project: IssuableProject,
  o: CreditKey,
  registryCode: string,
  now: number,
): { id: string; serialization: string } {
  const { db } = ctx;
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
      registryCode,
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
  return credit;
}
