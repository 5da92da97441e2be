// The back office's screens by navigation id (stores/navigation.ts BACK_OFFICE_SCREENS): one file
// each, so each screen is built and replaced on its own.
import type { BackOfficeScreenId } from '@renderer/stores/navigation';
import { AppsScreen } from './AppsScreen';
import { AuditLogScreen } from './AuditLogScreen';
import { CreditHistoryScreen } from './CreditHistoryScreen';
import { IssuanceScreen } from './IssuanceScreen';
import { OperatorsScreen } from './OperatorsScreen';
import { OrganizationsScreen } from './OrganizationsScreen';
import { ProjectsScreen } from './ProjectsScreen';
import { TransfersScreen } from './TransfersScreen';

export const BACK_OFFICE_COMPONENTS: Record<BackOfficeScreenId, () => React.JSX.Element> = {
  'bo-organizations': OrganizationsScreen,
  'bo-operators': OperatorsScreen,
  'bo-projects': ProjectsScreen,
  'bo-issuance': IssuanceScreen,
  'bo-transfers': TransfersScreen,
  'bo-credit-history': CreditHistoryScreen,
  'bo-apps': AppsScreen,
  'bo-audit': AuditLogScreen,
};
