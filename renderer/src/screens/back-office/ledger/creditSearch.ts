// Credit history's search, as a keyboard and screen-reader user meets it: "Show history" with the
// field empty did nothing at all, and a history shown said nothing (focus stays in the field, so the
// table appearing below was silent). The empty search is refused beside the field; each history read
// for a new search is said once (not again when it reloads after a write or a sync).
import { useEffect, useRef } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { say } from '@renderer/components/Announcer';
import { focusSoon } from '@renderer/lib/focus';

export const EMPTY_SEARCH = 'Enter a serialization (for example RDR-KEN-1-1-1-P-0-2022) or a credit id.';

/** "Show history" with nothing to show: focus the field (its problem is beside it) and say why. */
export function refuseEmptySearch(field: () => HTMLElement | null): void {
  focusSoon(field);
  say(EMPTY_SEARCH);
}

/** Says what a new search found: the credit and how many movements are shown (or that more follow). */
export function useSearchAnnouncement(search: string | null, trail: BackOfficeData<'operatorCreditTrail'> | null): void {
  const said = useRef<string | null>(null);
  useEffect(() => {
    if (!search || !trail || said.current === search) return;
    said.current = search;
    const shown = trail.movements.length;
    const movements = shown === 1 ? '1 movement' : `${shown} movements`;
    say(`History of ${trail.credit.serialization}: ${movements}${trail.nextCursor ? ' shown so far' : ''}.`);
  }, [search, trail]);
}
