// Turns what keytar/libsecret/D-Bus throw into sentences an account manager can act on. The raw
// messages ("Cannot autolaunch D-Bus without X11 $DISPLAY") are kept in parentheses for support.
import { TimeoutError } from './timeout';

const LINUX_NO_SESSION_BUS = /autolaunch D-Bus|Could not connect|DBUS_SESSION_BUS_ADDRESS|Unknown or unsupported transport/i;
const LINUX_NO_SECRET_SERVICE = /org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files/i;
const LINUX_NO_DEFAULT_KEYRING = /collection\/login|No such secret collection|Object does not exist at path/i;
const LOCKED_OR_DENIED = /locked|dismissed|cancel|denied|not allowed/i;

export function explainKeychainFailure(error: unknown): string {
  if (error instanceof TimeoutError) {
    return `The OS keychain did not respond within ${Math.round(error.timeoutMs / 100) / 10} s (the Secret Service or D-Bus may be hung).`;
  }
  const raw = error instanceof Error ? error.message : String(error);
  const detail = raw.split('\n')[0]!.slice(0, 300);
  if (LINUX_NO_SESSION_BUS.test(raw)) {
    return `No OS keychain is available (no D-Bus session, so no Secret Service can be reached on this Linux session: ${detail}).`;
  }
  if (LINUX_NO_SECRET_SERVICE.test(raw)) {
    return `No OS keychain is available (no Secret Service running on this Linux session; install and start gnome-keyring or KWallet: ${detail}).`;
  }
  if (LINUX_NO_DEFAULT_KEYRING.test(raw)) {
    return `The OS keychain has no usable default keyring (it may not exist yet or be locked: ${detail}).`;
  }
  if (LOCKED_OR_DENIED.test(raw)) {
    return `The OS keychain refused access (it may be locked or the request was dismissed: ${detail}).`;
  }
  return `The OS keychain reported an error: ${detail}`;
}

/**
 * The one sentence saying why there is no keychain: the probe's reason (already a sentence that
 * names the keychain and its cause) or a plain default. Callers add what to do, never the cause again.
 */
export function keychainCause(reason: string | undefined): string {
  const text = reason?.trim() || 'No OS keychain is available.';
  return text.endsWith('.') ? text : `${text}.`;
}

/** Removes every occurrence of `secret` from `text`: OS messages are not ours and must not leak it. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('[redacted]');
}
