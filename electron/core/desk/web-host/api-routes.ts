// The desk API's routes of the web host (server.ts): the session and CSRF guard in front of them,
// desk calls, key uploads and file downloads, the event stream, and the test clock.
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { fileHandleId } from '@shared/desk/api';
import type { DeskDispatcher } from '@desk/dispatcher';
import { toDeskError } from '@desk/errors';
import { MAX_KEY_UPLOAD_BYTES } from '@desk/key-imports';
import { CSRF_HEADER, type AccessGate, type DeskSession } from './access';

export type DeskApp = Hono<{ Variables: { session: DeskSession } }>;
type GateOf = () => AccessGate | undefined;

/** Moves the desk's adjustable clock forward and answers its offset from the system clock. */
export interface TestClockControl {
  advance(ms: number): number | Promise<number>;
}

export function refuse<C extends Context>(c: C, status: 403 | 404 | 421, message: string) {
  return c.json({ ok: false, error: { code: 'forbidden', message } }, status);
}

const MAX_BODY_BYTES = 1024 * 1024;
const clockAdvanceBody = z.object({
  ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3600 * 1000),
});

/** Every /api/ request needs the page's session and its CSRF token, from the desk's own origin. */
export function guardApi(app: DeskApp, gateOf: GateOf): void {
  app.use('/api/*', async (c, next) => {
    const gate = gateOf()!;
    c.header('cache-control', 'no-store');
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin') return refuse(c, 403, 'cross-site requests are refused');
    if (!gate.originAllowed(c.req.header('origin'))) return refuse(c, 403, 'foreign origin refused');
    const session = gate.sessionOf(c.req.header('cookie'));
    if (!session) return refuse(c, 403, 'no desk session: open the desk from its launch address');
    if (!gate.csrfMatches(session, c.req.header(CSRF_HEADER))) return refuse(c, 403, 'missing or wrong desk token');
    c.set('session', session);
    return next();
  });
}

/** One desk API call, and a new launch address for another browser. */
export function addDeskCalls(app: DeskApp, desk: DeskDispatcher, gateOf: GateOf): void {
  app.post(
    '/api/invoke/:method',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ ok: false, error: { code: 'invalid_input', message: 'request body too large' } }, 413),
    }),
    async (c) => {
      const text = await c.req.text();
      let input: unknown = undefined;
      if (text.trim() !== '') {
        try {
          input = JSON.parse(text);
        } catch {
          return c.json({ ok: false, error: { code: 'invalid_input', message: 'the request body is not JSON' } }, 400);
        }
      }
      return c.json(await desk.dispatch(c.req.param('method'), input));
    },
  );

  // Only a page that already drives the desk may let another browser in (access.ts).
  app.post('/api/launch-links', (c) => c.json({ ok: true, value: { url: gateOf()!.newLaunchUrl() } }));
}

/** Key files the page uploads, files the desk produced downloaded. */
export function addFileRoutes(app: DeskApp, desk: DeskDispatcher): void {
  // The browser's equivalent of Electron's open dialog: the page sends the chosen file as the body
  // without reading it; the desk keeps the key and the page gets a handle.
  app.post(
    '/api/keys/import',
    bodyLimit({
      maxSize: MAX_KEY_UPLOAD_BYTES,
      onError: (c) =>
        c.json(
          {
            ok: false,
            error: { code: 'invalid_input', message: `too large to be a key file (at most ${MAX_KEY_UPLOAD_BYTES / 1000} KB)` },
          },
          413,
        ),
    }),
    async (c) => {
      const fileName = decodedFileName(c.req.header('x-desk-filename'));
      if (fileName === undefined) {
        const message = 'x-desk-filename: not a percent-encoded file name';
        return c.json({ ok: false, error: { code: 'invalid_input', message } }, 400);
      }
      try {
        return c.json({ ok: true, value: await desk.keyImports.put(await c.req.text(), fileName) });
      } catch (error) {
        return c.json({ ok: false, error: toDeskError(error) });
      }
    },
  );

  // The browser's equivalent of the Electron save dialog: the page names only the handle; the
  // bytes, the name and the type are the desk's own (artifacts.ts), served once as an attachment.
  app.get('/api/files/:handle', async (c) => {
    const handle = fileHandleId.safeParse(c.req.param('handle'));
    const file = handle.success ? await desk.artifacts.get(handle.data) : undefined;
    if (!file)
      return c.json(
        { ok: false, error: { code: 'not_found', message: 'This file is no longer available: export or download it again' } },
        404,
      );
    desk.artifacts.release(file.handle);
    c.header('content-type', file.mimeType);
    c.header(
      'content-disposition',
      `attachment; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    );
    c.header('x-desk-filename', encodeURIComponent(file.filename));
    c.header('x-content-type-options', 'nosniff');
    return c.body(new Uint8Array(file.bytes).buffer);
  });
}

/** DeskEvents as server-sent events, with a keep-alive comment when idle. */
export function addEventStream(app: DeskApp, desk: DeskDispatcher, keepAliveMs: number): void {
  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      const unsubscribe = desk.onEvent((event) => {
        void stream.writeSSE({ event: 'desk', data: JSON.stringify(event) });
      });
      let open = true;
      stream.onAbort(() => {
        open = false;
        unsubscribe();
      });
      // The first comment lets the client know the stream is live before any event happens.
      await stream.write(': connected\n\n');
      while (open) {
        await stream.sleep(keepAliveMs);
        if (open) await stream.write(': keep-alive\n\n');
      }
    }),
  );
}

/** Only with --test-clock: moves the registry's and desk's clock. */
export function addTestClock(app: DeskApp, clock: TestClockControl): void {
  app.post('/api/test/clock/advance', async (c) => {
    const parsed = clockAdvanceBody.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success)
      return c.json({ ok: false, error: { code: 'invalid_input', message: 'body must be { "ms": <non-negative integer> }' } }, 400);
    const offsetMs = await clock.advance(parsed.data.ms);
    return c.json({ ok: true, offsetMs });
  });
}

/** The key file's name as the page sent it (percent-encoded); undefined for a malformed escape such as `%E0%A4%A`. */
function decodedFileName(header: string | undefined): string | undefined {
  try {
    return decodeURIComponent(header ?? 'key file');
  } catch {
    return undefined;
  }
}
