// An organization's page beside the list: its registry record in full, or, for one linked from
// another screen that this app does not see, its name and id and why there is no more.
import type { DeskOutput } from '@shared/desk/api';
import { countryName, formatDate, humanize } from '@renderer/lib/format';
import { Facts } from '@renderer/components/DefinitionList';
import { ExternalLink } from '@renderer/components/ExternalLink';
import { DetailsHeader, DetailsPanel } from '@renderer/components/DetailsPanel';

type ListedOrganization = DeskOutput<'organizations.list'>['organizations'][number];

/** An organization's row's name (it opens the details), to give focus back to. */
const rowOf = (id: string) => () => document.querySelector(`tr[data-organization-id="${CSS.escape(id)}"] button`);
const theList = () => document.querySelector('table[aria-label="Organizations"]');

export function UnknownOrganization({ unknown, onClose }: { unknown: { id: string; name: string }; onClose: () => void }) {
  return (
    <DetailsPanel label="Organization details" openKey={unknown.id} returnTo={rowOf(unknown.id)} fallback={theList}>
      <DetailsHeader title={unknown.name} onClose={onClose} />
      <p className="muted">
        This organization is not among those synced from this registry (it shares only public organizations with this app), so only its name
        and id are known here.
      </p>
      <Facts items={[['Registry id', <span className="mono">{unknown.id}</span>]]} />
    </DetailsPanel>
  );
}

export function OrganizationDetails({ open, onClose }: { open: ListedOrganization; onClose: () => void }) {
  return (
    <DetailsPanel label="Organization details" openKey={open.id} returnTo={rowOf(open.id)} fallback={theList}>
      <DetailsHeader title={open.fullName} onClose={onClose} closesOnEscape />
      <Facts
        items={[
          ['Type', humanize(open.type)],
          [
            'Industry',
            open.organizationIndustries.name ? `${open.organizationIndustries.name} (${open.organizationIndustries.code})` : null,
          ],
          ['Registration number', open.registrationNumber],
          ['Address', [open.physicalAddress, open.zip, open.city].filter(Boolean).join(', ')],
          ['Country', countryName(open.countryCode)],
          ['Website', <ExternalLink href={open.website}>{open.website}</ExternalLink>],
          // Its `url` is the registry's API record (JSON behind credentials), not a web page: this panel is its page.
          ['Registry id', <span className="mono">{open.id}</span>],
          ['Public', open.isPublic ? 'Yes' : 'No'],
          ['Installed this app', open.installed ? 'Yes' : 'No'],
          ['Member since', formatDate(open.createdAt)],
        ]}
      />
    </DetailsPanel>
  );
}
