// The projects an organization owns, each opening its project page, with its status.
import { useNavigation } from '@renderer/stores/navigation';
import { StatusBadge } from '@renderer/components/StatusBadge';
import type { PageOrganization } from './organization';

export function OrganizationProjects({ projects }: { projects: PageOrganization['projects'] }) {
  const openProject = useNavigation((s) => s.openProject);
  return (
    <section aria-labelledby="bo-projects">
      <h3 id="bo-projects">Projects</h3>
      {projects.length === 0 ? (
        <p className="muted">No projects.</p>
      ) : (
        <ul className="plain-list">
          {projects.map((p) => (
            <li key={p.id}>
              <button type="button" className="button-link" onClick={() => openProject(p.id)}>
                {p.num} · {p.fullName}
              </button>{' '}
              <StatusBadge value={p.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
