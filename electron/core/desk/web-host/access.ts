// Who may drive the web desk: only the page opened from the launch address this process printed.
//
//  - The launch address carries a one-time secret. Its first load spends it and answers the page
//    with (a) an HttpOnly, SameSite=Strict session cookie and (b) a CSRF token in a <meta> tag, in
//    that one response only. Cookies are not port-bound, so another program on 127.0.0.1 could see
//    the cookie if the browser visited it; the CSRF token it cannot get, because no later response
//    repeats it.
//  - Every /api request needs both the cookie and the token (header x-desk-csrf), a Host header
//    naming this very address (against DNS rebinding), and no foreign Origin.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'desk_session';
export const CSRF_HEADER = 'x-desk-csrf';
export const CSRF_META = 'desk-csrf';

export interface DeskSession {
  id: string;
  csrfToken: string;
}

const secret = () => randomBytes(32).toString('base64url');

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
  readonly launchUrl: string;
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
  let launchSecret: string | undefined = secret();
  const launchUrl = `http://127.0.0.1:${port}/?launch=${launchSecret}`;
  const sessions = new Map<string, DeskSession>();
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  return {
    launchUrl,
    hostAllowed: (host) => host !== undefined && hosts.has(host.toLowerCase()),
    originAllowed: (origin) => origin === undefined || origins.has(origin.toLowerCase()),
    redeemLaunch(candidate) {
      if (launchSecret === undefined || !sameSecret(candidate, launchSecret)) return undefined;
      launchSecret = undefined;
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
