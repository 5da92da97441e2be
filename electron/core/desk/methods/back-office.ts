// The desk API's backOffice.* methods (shared/desk/api.ts).
import type { MethodGroup, ServiceContext } from './context';

/** backOffice.*: the operator endpoints of the active connection (back-office/). */
export function backOfficeMethods({ backOffice }: ServiceContext): MethodGroup<'backOffice'> {
  return {
    'backOffice.session': () => backOffice.session(),
    'backOffice.read': (input) => backOffice.read(input),
    'backOffice.write': (input) => backOffice.write(input),
    'backOffice.settle': (input) => backOffice.settle(input),
    'backOffice.accountMovements': (input) => backOffice.accountMovements(input),
  };
}
