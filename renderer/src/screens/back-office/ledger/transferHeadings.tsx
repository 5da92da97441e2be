// The headings of a ledger movement's review (Transfers and cancellations): a sentence while it is
// reviewed, and once made what was done.
import type { ReactNode } from 'react';

export type Operation = 'transfer' | 'deposit' | 'withdrawal' | 'cancellation';

/**
 * The review's heading as a sentence, and once made what was done: `what` is "5 t of <serialization>",
 * `to` where a transfer goes ("to wallet 0x12ab…cd34": the full address is read to screen readers).
 */
export const HEADINGS: Record<
  Operation,
  { review: (what: string, to: ReactNode) => ReactNode; done: (what: string, to: ReactNode) => ReactNode }
> = {
  transfer: {
    review: (what, to) => (
      <>
        Review the transfer of {what} {to}
      </>
    ),
    done: (what, to) => (
      <>
        Transferred {what} {to}
      </>
    ),
  },
  deposit: { review: (what) => `Review the move of ${what} into the warehouse`, done: (what) => `Moved ${what} into the warehouse` },
  withdrawal: { review: (what) => `Review the move of ${what} out of the warehouse`, done: (what) => `Moved ${what} out of the warehouse` },
  cancellation: { review: (what) => `Review the cancellation of ${what}`, done: (what) => `Cancelled ${what} for good` },
};
