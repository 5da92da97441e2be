// A pending reservation as the registry answers it: 1.5 t of a Kenya Cookstoves credit, made `at`
// and held for the registry's ten minutes. The warehouse screen's and the Finish dialog's tests
// both start from it.
import type { Reservation } from '@shared/registry/resources';

export function pendingReservation(at: string): Reservation {
  return {
    id: 'reservation-1',
    creditId: 'exPost-7-0xabc',
    serialization: 'RDR-KEN-1-12-7-P-1-2023',
    amount: 1.5,
    createdAt: at,
    state: 'pending',
    retirementId: null,
    updatedAt: at,
    tokenId: '7',
    tokenAddress: '0xabc',
    type: 'exPost',
    reservedToDate: new Date(Date.parse(at) + 10 * 60_000).toISOString(),
    isComplete: false,
    project: { id: 'project-1', fullName: 'Kenya Cookstoves', url: '', publicUrl: '', num: '12' },
    reserver: { id: 'installation-1', name: 'Marketplace' },
  };
}
