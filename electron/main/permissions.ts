// What the page may ask Chromium for: notifications (the reservation expiry notices), and only from
// the app's own page (app://desk); everything else, and anything from another origin, is refused.
// With a deny-all handler `Notification.permission` reads "denied" and every notice is dropped.
import type { Session } from 'electron';
import { APP_ORIGIN } from './protocol';

/** Permissions granted to the app's own origin. */
export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications']);

/** The origin of `url` (app://desk for the page), or undefined when it is not a URL. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    // app:// is registered as a standard scheme in Electron; Node's URL calls its origin "null".
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

/** Whether `permission` asked for by `requestingUrl` (a URL or an origin) is granted. */
export function isPermissionGranted(permission: string, requestingUrl: string | undefined): boolean {
  return GRANTED_PERMISSIONS.has(permission) && originOf(requestingUrl) === APP_ORIGIN;
}

/** Installs the request handler (a prompt) and the check handler (`Notification.permission`, permissions.query). */
export function installPermissionHandlers(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details?.requestingUrl)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionGranted(permission, requestingOrigin));
}
