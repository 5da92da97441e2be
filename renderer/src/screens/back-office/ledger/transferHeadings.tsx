// The headings of a ledger movement's review (Transfers and cancellations): a sentence while it is
// reviewed, and once made what was done; each names where the credits go (a wallet, whose warehouse).
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
  // A warehouse move's `to` is its organization's name: "into the warehouse of Baobab Roots".
  deposit: {
    review: (what, of) => (
      <>
        Review the move of {what} into the warehouse of {of}
      </>
    ),
    done: (what, of) => (
      <>
        Moved {what} into the warehouse of {of}
      </>
    ),
  },
  withdrawal: {
    review: (what, of) => (
      <>
        Review the move of {what} out of the warehouse of {of}
      </>
    ),
    done: (what, of) => (
      <>
        Moved {what} out of the warehouse of {of}
      </>
    ),
  },
  cancellation: { review: (what) => `Review the cancellation of ${what}`, done: (what) => `Cancelled ${what} for good` },
};
