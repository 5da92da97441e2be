// What an organization is, at the top of its page: its record's fields, and where else the desk
// shows it (its public profile and retirements, the warehouse).
import { countryName, formatDateTime, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { Facts } from '@renderer/components/DefinitionList';
import type { PageOrganization } from './organization';

export function OrganizationFacts({ organization: o }: { organization: PageOrganization }) {
  const go = useNavigation((s) => s.go);
  const openOrganization = useNavigation((s) => s.openOrganization);
  return (
    <Facts
      items={[
        ['Id', <span className="mono">{o.id}</span>],
        ['Type', humanize(o.type)],
        ['Country', countryName(o.countryCode)],
        ['City', o.city],
        ['Postal code', o.zip],
        ['Address', o.physicalAddress],
        ['Registration number', o.registrationNumber],
        ['Website', o.website],
        ['Logo', o.logo],
        ['Industry', [o.organizationIndustries.code, o.organizationIndustries.name].filter((s) => s !== '').join(' · ')],
        ['Public', o.isPublic ? 'Yes' : 'No'],
        ['Registry operator', o.isRegistry ? 'Yes' : 'No'],
        ['Created', formatDateTime(o.createdAt)],
        ['Updated', formatDateTime(o.updatedAt)],
        [
          'Elsewhere in the desk',
          <span className="link-row">
            <button type="button" className="button-link" onClick={() => openOrganization(o.id, o.fullName)}>
              Public profile and retirements
            </button>
            {' · '}
            <button type="button" className="button-link" onClick={() => go('warehouse')}>
              Warehouse
            </button>
          </span>,
        ],
      ]}
    />
  );
}
