// The operator CLI's commands: each maps one name to one operator operation (registry/operations/)
// and that operation's own input schema. Adding a command is adding a row here; admin.ts does the
// rest (flags, validation, output) the same way for all of them.
import { z } from 'zod';
import type { RegistryContext } from '../context';
import * as organizations from '../operations/organizations';
import * as projects from '../operations/projects';
import * as issuance from '../operations/issuance';
import * as transfers from '../operations/transfers';
import * as retirements from '../operations/retirements';
import * as apps from '../operations/apps';
import * as operators from '../operations/operators';
import { seedDemo, seedDemoOptions } from '../seed';
import { verifyLogDatabase } from '../transparency/verify-database';
import { CliError } from './args';

export interface CommandSpec {
  summary: string;
  /** The operation's input schema; every field is a flag (`organizationId` → `--organization-id`). */
  input: z.ZodObject;
  run(ctx: RegistryContext, input: Record<string, unknown>, env: { dataDir: string }): unknown;
  /** Short flags for fields: `--organization` for `organizationId`. */
  aliases?: Record<string, string>;
  /** Flags whose value names a file whose text fills the field: `--public-key` for `publicKeyPem`. */
  fileFlags?: Record<string, string>;
  /** Fields the command fixes (verify / unverify share one operation); not flags. */
  fixed?: Record<string, unknown>;
  example?: string;
  /** May start a new registry in a data folder that does not exist yet. */
  startsRegistry?: boolean;
  /** Opens a database that may have been tampered with, to inspect it (see OpenRegistryOptions.inspecting). */
  inspecting?: boolean;
  /**
   * The audit log's name for what the command does (the same as the operator endpoint's); every run
   * leaves one entry with the CLI and the OS user as its actor. Absent: the command audits itself.
   */
  action?: string;
}

/** Keeps each row's `run` typed against its own schema while the table holds them side by side. */
function command<S extends z.ZodObject>(
  spec: Omit<CommandSpec, 'input' | 'run'> & { input: S; run(ctx: RegistryContext, input: z.input<S>, env: { dataDir: string }): unknown },
): CommandSpec {
  return spec;
}

const organization = { organization: 'organizationId' };
const credit = { credit: 'creditId' };

export const COMMANDS: Record<string, CommandSpec> = {
  'create-organization': command({
    action: 'organizations.create',
    summary: 'Create an organization (proponent, verification body, buyer, or the registry operator itself).',
    input: organizations.createOrganizationInput,
    run: organizations.createOrganization,
    startsRegistry: true,
    example: '--full-name "Alpha Forests Ltd" --country-code KE --type projectProponent --verified',
  }),
  'verify-organization': command({
    action: 'organizations.setVerified',
    summary: 'Record that an organization passed business verification.',
    input: organizations.setOrganizationVerifiedInput,
    run: organizations.setOrganizationVerified,
    aliases: organization,
    fixed: { verified: true },
  }),
  'unverify-organization': command({
    action: 'organizations.setVerified',
    summary: 'Withdraw an organization’s business verification.',
    input: organizations.setOrganizationVerifiedInput,
    run: organizations.setOrganizationVerified,
    aliases: organization,
    fixed: { verified: false },
  }),
  'create-project': command({
    action: 'projects.create',
    summary: 'Create a project from a JSON file (--file project.json); flags override its fields.',
    input: projects.createProjectInput,
    run: projects.createProject,
    aliases: organization,
    example: '--file project.json',
  }),
  'set-project-status': command({
    action: 'projects.setStatus',
    summary: 'Move a project to another status (records a status_change event).',
    input: projects.changeProjectStatusInput,
    run: projects.changeProjectStatus,
    aliases: { project: 'projectId' },
    example: '--project <id> --status submitted',
  }),
  'issue-credits': command({
    action: 'credits.issue',
    summary: 'Issue credits of a vintage to the project owner’s inventory, with the buffer share.',
    input: issuance.issueCreditsInput,
    run: issuance.issueCredits,
    aliases: { project: 'projectId', 'verification-body': 'verificationBodyId' },
    example:
      '--project <id> --vintage 2023 --amount 1000 --monitoring-period-start 2023-01-01 --monitoring-period-end 2023-12-31 --verification-body <org id>',
  }),
  deposit: command({
    action: 'warehouse.deposit',
    summary: 'Move credits from an organization’s inventory into its warehouse.',
    input: transfers.warehouseMoveInput,
    run: transfers.depositToWarehouse,
    aliases: { ...organization, ...credit },
  }),
  withdraw: command({
    action: 'warehouse.withdraw',
    summary: 'Move unreserved credits from an organization’s warehouse back to its inventory.',
    input: transfers.warehouseMoveInput,
    run: transfers.withdrawFromWarehouse,
    aliases: { ...organization, ...credit },
  }),
  transfer: command({
    action: 'credits.transfer',
    summary: 'Move credits between accounts: inventory:<org>, wallet:<address>, buffer, adjustment, registry.',
    input: transfers.transferCreditsInput,
    run: transfers.transferCredits,
    aliases: credit,
    example: '--from inventory:<org id> --to adjustment --credit <credit id> --amount 10',
  }),
  'cancel-credits': command({
    action: 'credits.cancel',
    summary: 'Cancel credits held in an account (they leave circulation without a retirement).',
    input: transfers.cancelCreditsInput,
    run: transfers.cancelCredits,
    aliases: credit,
    example: '--from adjustment --credit <credit id> --amount 10',
  }),
  retire: command({
    action: 'credits.retire',
    summary: 'Retire credits from an organization’s inventory for a beneficiary.',
    input: retirements.retireFromInventoryInput,
    run: retirements.retireFromInventory,
    aliases: { ...organization, ...credit },
  }),
  'record-onchain-retirement': command({
    action: 'retirements.recordOnchain',
    summary: 'Record a retirement a wallet made on chain (unclaimed until the wallet finalizes it).',
    input: retirements.recordOnchainRetirementInput,
    run: retirements.recordOnchainRetirement,
    aliases: { wallet: 'walletAddress', 'from-organization': 'fromOrganizationId', ...credit },
  }),
  'create-app': command({
    action: 'apps.create',
    summary: 'Register an app with its RSA public key (PEM file).',
    input: apps.createAppInput,
    run: apps.createApp,
    fileFlags: { 'public-key': 'publicKeyPem' },
    example: '--name "Acme Marketplace" --public-key ./acme.pub.pem',
  }),
  'grant-examiner': command({
    action: 'apps.setExaminer',
    summary: 'Grant an app examiner:read (internal project views).',
    input: apps.grantExaminerInput,
    run: apps.grantExaminer,
    aliases: { app: 'appId' },
    fixed: { granted: true },
  }),
  'revoke-examiner': command({
    action: 'apps.setExaminer',
    summary: 'Revoke an app’s examiner:read.',
    input: apps.grantExaminerInput,
    run: apps.grantExaminer,
    aliases: { app: 'appId' },
    fixed: { granted: false },
  }),
  'install-app': command({
    action: 'installations.create',
    summary: 'Install an app on an organization with permissions.',
    input: apps.installAppInput,
    run: apps.installApp,
    aliases: { app: 'appId', ...organization },
    example: `--app <app id> --organization <org id> --permissions '{"organization_warehouse":"WRITE"}'`,
  }),
  'suspend-installation': command({
    action: 'installations.setStatus',
    summary: 'Suspend an installation: its tokens stop working at once.',
    input: apps.setInstallationStatusInput,
    run: apps.setInstallationStatus,
    aliases: { installation: 'installationId' },
    fixed: { status: 'suspended' },
  }),
  'resume-installation': command({
    action: 'installations.setStatus',
    summary: 'Resume a suspended installation.',
    input: apps.setInstallationStatusInput,
    run: apps.setInstallationStatus,
    aliases: { installation: 'installationId' },
    fixed: { status: 'active' },
  }),
  'remove-installation': command({
    action: 'installations.remove',
    summary: 'Remove an installation and its tokens.',
    input: apps.removeInstallationInput,
    run: apps.removeInstallation,
    aliases: { installation: 'installationId' },
  }),
  'create-operator': command({
    action: 'operators.create',
    summary: 'Create an operator account (viewer, manager or administrator) with its RSA public key (PEM file).',
    input: operators.createOperatorInput,
    run: operators.createOperator,
    fileFlags: { 'public-key': 'publicKeyPem' },
    example: '--name "Ada Admin" --role administrator --public-key ./ada.pub.pem',
  }),
  'disable-operator': command({
    action: 'operators.setActive',
    summary: 'Disable an operator account: its tokens stop working at once.',
    input: operators.setOperatorActiveInput,
    run: operators.setOperatorActive,
    aliases: { operator: 'operatorId' },
    fixed: { active: false },
  }),
  'enable-operator': command({
    action: 'operators.setActive',
    summary: 'Enable a disabled operator account again.',
    input: operators.setOperatorActiveInput,
    run: operators.setOperatorActive,
    aliases: { operator: 'operatorId' },
    fixed: { active: true },
  }),
  'verify-log': command({
    inspecting: true,
    summary: 'Rebuild the transparency log from the database rows and check it against every signed checkpoint (exit 1 on any difference).',
    input: z.object({}),
    run: (ctx) => {
      const result = verifyLogDatabase(ctx);
      if (result.problems.length > 0) throw new CliError(`the transparency log does not verify: ${result.problems.join('; ')}`);
      return { verified: true, leaves: result.leaves, checkpoints: result.checkpoints };
    },
  }),
  'seed-demo': command({
    summary: 'Fill an EMPTY registry with the demo data and write demo-credentials.json (demo only).',
    input: seedDemoOptions.omit({ dataDir: true }),
    run: (ctx, input, env) => {
      const { credentials, ...result } = seedDemo(ctx, { ...input, dataDir: env.dataDir });
      // the private keys stay in the 0600 file; the output names what was made
      return {
        ...result,
        app: { id: credentials.app.id, name: credentials.app.name },
        installations: credentials.installations.length,
        wallets: credentials.wallets.length,
      };
    },
    startsRegistry: true,
    example: '--scale 1',
  }),
};
