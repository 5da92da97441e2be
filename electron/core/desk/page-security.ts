// The Content-Security-Policy of the desk's page, the same in the Electron window (app://) and in
// the loopback web host: only the page's own scripts, styles and connections; no remote content,
// no plugins, no framing, no <base> tricks. React sets styles through the DOM (not inline <style>),
// so style-src needs no 'unsafe-inline'.
export const DESK_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers every page response carries, besides the CSP. */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': DESK_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};
