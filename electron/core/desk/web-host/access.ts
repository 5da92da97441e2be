// Who may drive the web desk: only the page opened from a launch address this process printed.
//
//  - A launch address carries a one-time secret. Its first load spends it and answers the page
//    with (a) an HttpOnly, SameSite=Strict session cookie and (b) a CSRF token in a <meta> tag, in
//    that one response only. Cookies are not port-bound, so another program on 127.0.0.1 could see
//    the cookie if the browser visited it; the CSRF token it cannot get, because no later response
//    repeats it.
//  - Every /api request needs both the cookie and the token (header x-desk-csrf), a Host header
//    naming this very address (against DNS rebinding), and no foreign Origin.
//  - Another browser (or profile) needs a launch address of its own: one is minted only for whom
//    already drives the desk, the terminal that started it or a page holding a session, never for
//    an anonymous request. At most MAX_OPEN_LAUNCHES unspent ones exist; a newer one drops the oldest.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'desk_session';
export const CSRF_HEADER = 'x-desk-csrf';
export const CSRF_META = 'desk-csrf';

export interface DeskSession {
  id: string;
  csrfToken: string;
}

const secret = () => randomBytes(32).toString('base64url');
const MAX_OPEN_LAUNCHES = 4;

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    cookies.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return cookies;
}

export interface AccessGate {
  /** The first launch address (printed when the desk starts). */
  readonly launchUrl: string;
  /** A new one-time launch address, for another browser. */
  newLaunchUrl(): string;
  /** Host header is this address (127.0.0.1:<port> or localhost:<port>). */
  hostAllowed(host: string | undefined): boolean;
  /** No Origin (same-origin navigations, non-browser clients) or exactly this host's own. */
  originAllowed(origin: string | undefined): boolean;
  /** Spends the launch secret: a new session the first time, `undefined` ever after. */
  redeemLaunch(candidate: string): DeskSession | undefined;
  sessionOf(cookieHeader: string | undefined): DeskSession | undefined;
  csrfMatches(session: DeskSession, header: string | undefined): boolean;
  sessionCookie(session: DeskSession): string;
}

export function createAccessGate(port: number): AccessGate {
  // Unspent launch secrets, oldest first.
  const launches: string[] = [];
  const newLaunchUrl = () => {
    const launch = secret();
    launches.push(launch);
    if (launches.length > MAX_OPEN_LAUNCHES) launches.shift();
    return `http://127.0.0.1:${port}/?launch=${launch}`;
  };
  const launchUrl = newLaunchUrl();
  const sessions = new Map<string, DeskSession>();
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  return {
    launchUrl,
    newLaunchUrl,
    hostAllowed: (host) => host !== undefined && hosts.has(host.toLowerCase()),
    originAllowed: (origin) => origin === undefined || origins.has(origin.toLowerCase()),
    redeemLaunch(candidate) {
      const index = launches.findIndex((launch) => sameSecret(candidate, launch));
      if (index < 0) return undefined;
      launches.splice(index, 1);
      const session = { id: secret(), csrfToken: secret() };
      sessions.set(session.id, session);
      return session;
    },
    sessionOf(cookieHeader) {
      const id = parseCookies(cookieHeader).get(SESSION_COOKIE);
      if (!id) return undefined;
      for (const [known, session] of sessions) if (sameSecret(id, known)) return session;
      return undefined;
    },
    csrfMatches: (session, header) => header !== undefined && sameSecret(header, session.csrfToken),
    sessionCookie: (session) => `${SESSION_COOKIE}=${session.id}; HttpOnly; SameSite=Strict; Path=/`,
  };
}
