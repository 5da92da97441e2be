// A link that opens outside the desk (the system browser in Electron, a new tab in a browser).
// Only real web pages become links: http(s) addresses that are neither on this machine (loopback:
// the desk's own host, an embedded registry) nor the active registry's API (its records are JSON
// behind credentials; the desk shows them on its own pages). Anything else is shown as text.
import type { ReactNode } from 'react';
import { useConnections } from '../stores/connections';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

export function isWebAddress(url: string | null | undefined, registryBaseUrl?: string | null): url is string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (LOOPBACK.test(parsed.hostname)) return false;
  if (registryBaseUrl) {
    try {
      const api = new URL(registryBaseUrl);
      if (parsed.origin === api.origin && parsed.pathname.startsWith(api.pathname.replace(/\/$/, ''))) return false;
    } catch {
      // A base URL that does not parse excludes nothing.
    }
  }
  return true;
}

export function ExternalLink({ href, children, label }: { href: string | null | undefined; children: ReactNode; label?: string }) {
  const registryBaseUrl = useConnections((s) => s.active()?.baseUrl ?? null);
  if (!isWebAddress(href, registryBaseUrl)) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" aria-label={label} className="external-link">
      {children}
      <span aria-hidden="true"> ↗</span>
    </a>
  );
}
