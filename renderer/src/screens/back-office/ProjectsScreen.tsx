// Back office: Projects (operator). A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function ProjectsScreen() {
  return (
    <BackOfficePlaceholder
      title="Projects (operator)"
      description="Projects of every status: drafts, edits and the allowed status changes."
    />
  );
}
