// A validated forestry project of one organization with a credit per vintage, issued and partly put
// in the organization's warehouse: the stock that warehouse tests and benchmarks reserve from.
import type { RegistryContext } from '@registry/context';
import * as ops from '@registry/operations';

export interface StockedWarehouse {
  organizationId: string;
  verificationBodyId: string;
  projectName: string;
  vintages: readonly string[];
  /** Tonnes issued per vintage, and how many of them go to the warehouse. */
  issue: number;
  deposit: number;
  bufferBasisPoints?: number;
}

/** Creates the project, issues and deposits each vintage; answers the credit ids in vintage order. */
export function stockWarehouse(ctx: RegistryContext, stock: StockedWarehouse): string[] {
  const project = ops.createProject(ctx, {
    fullName: stock.projectName,
    status: 'validated',
    startDate: '2020-01-01',
    creditingPeriodStartDate: '2020-01-01',
    countryCode: 'KE',
    sector: { id: 'forestry', title: 'Forestry' },
    methodology: { id: 'm', title: 'M' },
    type: { id: 'removal', title: 'Removal' },
    organizationId: stock.organizationId,
  });
  return stock.vintages.map((vintage) => {
    const { creditId } = ops.issueCredits(ctx, {
      projectId: project.id,
      vintage,
      amount: stock.issue,
      bufferBasisPoints: stock.bufferBasisPoints ?? 0,
      monitoringPeriodStart: `${vintage}-01-01`,
      monitoringPeriodEnd: `${vintage}-12-31`,
      verificationBodyId: stock.verificationBodyId,
    });
    ops.depositToWarehouse(ctx, { organizationId: stock.organizationId, creditId, amount: stock.deposit });
    return creditId;
  });
}
