// What is known of a retirement, as a list of facts: its id and project, and, when it is shown in
// full, who it is for, why, by whom, and which credits.
import type { FullRetirement, Retirement } from '@shared/registry/resources';
import { useNavigation } from '@renderer/stores/navigation';
import { Facts } from '@renderer/components/DefinitionList';

export function RetirementFacts({ retirement, full }: { retirement: Retirement; full: FullRetirement | null }) {
  const openProject = useNavigation((s) => s.openProject);
  const openOrganization = useNavigation((s) => s.openOrganization);
  return (
    <Facts
      items={[
        ['Retirement id', <span className="mono">{retirement.id}</span>],
        [
          'Project',
          <button
            type="button"
            className="button-link"
            onClick={() => openProject(retirement.project.id)}
          >{`${retirement.project.fullName} (No. ${retirement.project.num})`}</button>,
        ],
        ['Beneficiary', full?.beneficiary],
        ['Reason', full?.reason],
        ['Comment', full?.comment],
        [
          'Retired by',
          // An organization opens the desk's own page; a finalized on-chain owner is a wallet address.
          full ? (
            /^0x[0-9a-f]{40}$/i.test(full.organizationOwner.id) ? (
              <span className="mono">{full.organizationOwner.fullName}</span>
            ) : (
              <button
                type="button"
                className="button-link"
                onClick={() => openOrganization(full.organizationOwner.id, full.organizationOwner.fullName)}
              >
                {full.organizationOwner.fullName}
              </button>
            )
          ) : null,
        ],
        ['Serialization', full ? <span className="mono">{full.serialization}</span> : null],
        ['Vintage', full?.vintage],
      ]}
    />
  );
}
