// The organizations screen's data: the organizations this app may see, in name order, narrowed by
// the filter typed, and the one whose page is open (through the navigation store, so other screens
// can link here), or a linked one this app does not see.
import { useMemo, useState } from 'react';
import { desk } from '@renderer/lib/desk';
import { compareNames } from '@renderer/lib/format';
import { useLoader } from '@renderer/lib/hooks';
import { useNavigation } from '@renderer/stores/navigation';
import { useSync } from '@renderer/stores/sync';
import { useRecordTitle } from '@renderer/lib/pageTitle';

export function useOrganizationList() {
  const dataVersion = useSync((s) => s.dataVersion);
  const list = useLoader(() => desk('organizations.list', {}), [], dataVersion);
  const [filter, setFilter] = useState('');
  // Open through the navigation store, so other screens can link to an organization's page here.
  const openId = useNavigation((s) => s.organizationId);
  const setOpenId = useNavigation((s) => s.openOrganization);
  const organizations = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const all = [...(list.data?.organizations ?? [])].sort((a, b) => compareNames(a.fullName, b.fullName));
    return words ? all.filter((o) => `${o.fullName} ${o.city} ${o.countryCode} ${o.type}`.toLowerCase().includes(words)) : all;
  }, [list.data, filter]);
  const openName = useNavigation((s) => s.organizationName);
  const open = list.data?.organizations.find((o) => o.id === openId) ?? null;
  // Linked from another screen but not among the organizations this app may see: say so on its page.
  const unknown = openId && !open && list.data ? { id: openId, name: openName ?? 'Organization' } : null;
  useRecordTitle(open ? `Organization: ${open.fullName}` : unknown ? `Organization: ${unknown.name}` : null);
  return { list, filter, setFilter, organizations, openId, setOpenId, open, unknown };
}
