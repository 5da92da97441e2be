// A back-office screen not built yet: its frame, and one sentence of what it will do.
import { BackOfficePage } from './BackOfficePage';

export function BackOfficePlaceholder({ title, description }: { title: string; description: string }) {
  return (
    <BackOfficePage title={title}>
      <div className="empty-state" role="status">
        <strong>Coming soon</strong>
        <p>{description}</p>
      </div>
    </BackOfficePage>
  );
}
