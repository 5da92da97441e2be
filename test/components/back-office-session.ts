// The back-office session of an administrator allowed everything, for dialogs and screens under test
// (their buttons are gated by the session's allowances).
import { OPERATOR_READS, OPERATOR_WRITES, type BackOfficeSession } from '@shared/desk/back-office';

export const administratorSession: BackOfficeSession = {
  available: true,
  operator: { id: 'op-1', name: 'Ada', role: 'administrator' },
  online: true,
  syncedAt: null,
  can: Object.fromEntries([...OPERATOR_READS, ...OPERATOR_WRITES].map((e) => [e, { allowed: true }])) as BackOfficeSession['can'],
};
