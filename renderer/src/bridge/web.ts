// The DeskBridge of the web desk (no Electron): calls go to the loopback web host as
// POST /api/invoke/<method>, events come from GET /api/events as server-sent events. Both carry
// the session cookie (automatic, same origin) and the CSRF token the host put in a <meta> tag on
// the launch load only. The token is kept in localStorage, which belongs to this exact origin
// (scheme, 127.0.0.1 and this desk's port: no other local server's page can read it), so a reload
// and a second tab of the same browser session keep working for the life of the desk process.
// When the host no longer knows the session (the desk was restarted, the cookie is gone), every
// call fails with SESSION_LOST_MESSAGE and the page hears `desk:session-lost` once.
// EventSource cannot send headers, so events are read from a streamed fetch instead.
import type { DeskBridge, DeskEvent, DeskResult, FileHandle, PickedKey } from '@shared/desk/api';

const CSRF_META = 'desk-csrf';
const CSRF_HEADER = 'x-desk-csrf';
const STORAGE_KEY = 'registry-desk.csrf';

export const SESSION_LOST_EVENT = 'desk:session-lost';
export const SESSION_LOST_MESSAGE =
  'This desk session has ended: open the desk again from the launch address printed where the desk was started (npm run web).';

let sessionLost = false;
function noteSessionLost(): void {
  if (sessionLost) return;
  sessionLost = true;
  window.dispatchEvent(new CustomEvent(SESSION_LOST_EVENT));
}

function csrfToken(): string {
  const fromMeta = document.querySelector<HTMLMetaElement>(`meta[name="${CSRF_META}"]`)?.content;
  if (fromMeta) {
    localStorage.setItem(STORAGE_KEY, fromMeta);
    // The launch secret in the address is spent; drop it so it is not bookmarked or shared.
    if (location.search.includes('launch=')) history.replaceState(null, '', location.pathname + location.hash);
    return fromMeta;
  }
  return localStorage.getItem(STORAGE_KEY) ?? '';
}

const failure = (message: string): DeskResult<never> => ({ ok: false, error: { code: 'internal', message } });

/** Splits an SSE byte stream into the JSON payloads of its `data:` lines. */
export function createSseParser(onData: (data: string) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data !== '') onData(data);
    }
  };
}

export function createWebBridge(): DeskBridge {
  const token = csrfToken();
  const listeners = new Set<(event: DeskEvent) => void>();
  let streaming = false;

  async function streamEvents(): Promise<void> {
    streaming = true;
    for (let attempt = 0; listeners.size > 0; attempt++) {
      try {
        const response = await fetch('/api/events', { headers: { [CSRF_HEADER]: token }, credentials: 'same-origin', cache: 'no-store' });
        if (response.status === 403) noteSessionLost();
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        attempt = 0;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const parse = createSseParser((data) => {
          const event = JSON.parse(data) as DeskEvent;
          for (const listener of [...listeners]) listener(event);
        });
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parse(value);
        }
      } catch {
        // The host restarted or the network hiccuped: wait a little and reconnect.
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** attempt)));
    }
    streaming = false;
  }

  return {
    host: 'web',
    async invoke(method, input) {
      try {
        const response = await fetch(`/api/invoke/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [CSRF_HEADER]: token },
          credentials: 'same-origin',
          body: JSON.stringify(input ?? {}),
        });
        const body = (await response.json().catch(() => undefined)) as DeskResult<never> | undefined;
        // The host refuses the session itself (not one call): no retry can help, only a new launch.
        if (response.status === 403 && body && !body.ok && body.error.code === 'forbidden') {
          noteSessionLost();
          return { ok: false, error: { code: 'forbidden', message: SESSION_LOST_MESSAGE } };
        }
        if (body && typeof body === 'object' && 'ok' in body) return body;
        return failure(`the desk host answered ${response.status}`);
      } catch (error) {
        return failure(`the desk host cannot be reached: ${(error as Error).message}`);
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      if (!streaming) void streamEvents();
      return () => {
        listeners.delete(listener);
      };
    },
    async importKeyFile(file?: Blob & { name?: string }) {
      if (!file) return null;
      // The file goes to the web host as it is: this page never reads the key.
      const response = await fetch('/api/keys/import', {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'x-desk-filename': encodeURIComponent(file.name ?? 'key file'),
          [CSRF_HEADER]: token,
        },
        credentials: 'same-origin',
        body: file,
      });
      const body = (await response.json().catch(() => undefined)) as DeskResult<PickedKey> | undefined;
      if (!body || typeof body !== 'object' || !('ok' in body)) throw new Error(`the desk host answered ${response.status}`);
      if (!body.ok) throw new Error(body.error.message);
      return body.value;
    },
    async newLaunchAddress() {
      const response = await fetch('/api/launch-links', {
        method: 'POST',
        headers: { [CSRF_HEADER]: token },
        credentials: 'same-origin',
        cache: 'no-store',
      });
      const body = (await response.json().catch(() => undefined)) as DeskResult<{ url: string }> | undefined;
      if (!body || typeof body !== 'object' || !('ok' in body)) throw new Error(`the desk host answered ${response.status}`);
      if (!body.ok) throw new Error(body.error.message);
      return body.value.url;
    },
    async saveFile(file: Pick<FileHandle, 'handle'>) {
      // The host serves the file the desk produced under this handle, with the desk's own name.
      const response = await fetch(`/api/files/${encodeURIComponent(file.handle)}`, {
        headers: { [CSRF_HEADER]: token },
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => undefined)) as DeskResult<never> | undefined;
        throw new Error(body && !body.ok ? body.error.message : `the desk host answered ${response.status}`);
      }
      const filename = decodeURIComponent(response.headers.get('x-desk-filename') ?? 'download');
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return { saved: true };
    },
  };
}
