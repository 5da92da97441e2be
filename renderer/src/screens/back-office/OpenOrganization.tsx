// An organization's page opened from the operator's list (or from "Open its page" after creating
// one): focus goes to its name once it is drawn, so a keyboard or screen-reader user starts on the
// organization they opened, not on the whole main region; back in the list (its "← All
// organizations", Escape), focus returns to that organization's row.
import { useEffect, useRef } from 'react';
import { focusSoon, returnFocusSoon } from '@renderer/lib/focus';
import { OrganizationPage } from './OrganizationPage';

/** The list's control for organization `id` (OrganizationsTable marks its rows). */
export const organizationRowButton = (id: string) => document.querySelector(`tr[data-organization-id="${CSS.escape(id)}"] button`);

export function OpenOrganization({ organizationId }: { organizationId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The page reads first: its name comes a few frames later (tried for about two seconds).
    focusSoon(
      () => ref.current?.querySelector('h2'),
      () => ref.current,
      120,
    );
    return () =>
      returnFocusSoon(
        () => organizationRowButton(organizationId),
        () => document.querySelector('table[aria-label="Back-office organizations"]'),
      );
  }, [organizationId]);
  return (
    <div ref={ref} data-focus-landing>
      <OrganizationPage organizationId={organizationId} />
    </div>
  );
}
