// Credit summaries (2.7), derived from the ledger only. Every figure is a sum of movements in whole
// grams, converted to tonnes once at the end, so summaries are exact and always agree with balances.
//
// Definitions (docs/api.md, Credits):
//   exPost / exAnte                   total ever issued of the ex-post / ex-ante credits ('issue'
//                                     movements, buffer share included)
//   exPostCancelled / exAnteCancelled total cancelled of them ('cancel' movements)
//   retired                           total retired, both types ('retire' movements)
//   validated                         exPost issued minus exPostCancelled
import type { CreditSummary, InventorySummary } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import type { CreditType } from '@shared/registry/vocabulary';

/** Gram totals of one credit, by movement kind. */
export interface CreditTotals {
  type: CreditType;
  issued: number;
  cancelled: number;
  retired: number;
}

export function summarizeCredits(credits: Iterable<CreditTotals>): CreditSummary {
  const grams = { exPost: 0, exPostCancelled: 0, exAnte: 0, exAnteCancelled: 0, retired: 0 };
  for (const c of credits) {
    if (c.type === 'exPost') {
      grams.exPost += c.issued;
      grams.exPostCancelled += c.cancelled;
    } else {
      grams.exAnte += c.issued;
      grams.exAnteCancelled += c.cancelled;
    }
    grams.retired += c.retired;
  }
  return {
    exPost: gramsToTonnes(grams.exPost),
    exPostCancelled: gramsToTonnes(grams.exPostCancelled),
    exAnte: gramsToTonnes(grams.exAnte),
    exAnteCancelled: gramsToTonnes(grams.exAnteCancelled),
    retired: gramsToTonnes(grams.retired),
    validated: gramsToTonnes(grams.exPost - grams.exPostCancelled),
  };
}

/**
 * Inventory summary of one account: exPost / exAnte = what the account holds now of each type;
 * retired = what was retired out of this account.
 */
export function summarizeInventory(holdings: Iterable<{ type: CreditType; balance: number }>, retiredGrams: number): InventorySummary {
  let exPost = 0;
  let exAnte = 0;
  for (const h of holdings) {
    if (h.type === 'exPost') exPost += h.balance;
    else exAnte += h.balance;
  }
  return { exPost: gramsToTonnes(exPost), exAnte: gramsToTonnes(exAnte), retired: gramsToTonnes(retiredGrams) };
}
