// Back office: Apps and installations. A placeholder until its screen lands.
import { BackOfficePlaceholder } from './Placeholder';

export function AppsScreen() {
  return (
    <BackOfficePlaceholder title="Apps and installations" description="Apps, their installations and examiner rights (administrators)." />
  );
}
