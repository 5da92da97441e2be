// A link that opens outside the desk (the system browser in Electron, a new tab in a browser).
// Only http(s) addresses become links: anything else in the data is shown as text, not followed.
import type { ReactNode } from 'react';

export function isWebAddress(url: string | null | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\//i.test(url);
}

export function ExternalLink({ href, children, label }: { href: string | null | undefined; children: ReactNode; label?: string }) {
  if (!isWebAddress(href)) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" aria-label={label} className="external-link">
      {children}
      <span aria-hidden="true"> ↗</span>
    </a>
  );
}
