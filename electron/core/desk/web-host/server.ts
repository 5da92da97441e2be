// The web desk: the built renderer and the desk API over loopback HTTP, for machines without the
// Electron binary. Binds 127.0.0.1 only; access.ts decides who may drive it.
//   GET  /?launch=<secret>        the page (spends the launch secret, sets the session)
//   GET  /assets/...              the renderer's files
//   POST /api/invoke/<method>     one desk API call, JSON in, DeskResult out
//   POST /api/launch-links        a new one-time launch address, for another browser (session required)
//   POST /api/keys/import         the app key file the page's file input chose, sent unread; answers its handle
//   GET  /api/files/<handle>      a file the desk produced (certificate, CSV export), as a download
//   GET  /api/events              DeskEvents as server-sent events
//   POST /api/test/clock/advance  only with --test-clock: moves the registry's and desk's clock
import { serve, type ServerType } from '@hono/node-server';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { fileHandleId } from '@shared/desk/api';
import type { DeskDispatcher } from '../dispatcher';
import { toDeskError } from '../errors';
import { MAX_KEY_UPLOAD_BYTES } from '../key-imports';
import { PAGE_SECURITY_HEADERS } from '../page-security';
import { CSRF_HEADER, CSRF_META, createAccessGate, type AccessGate, type DeskSession } from './access';
import { contentTypeFor, resolveStaticPath } from './static-files';
import { isDeskPagePath } from '@shared/desk/pages';

export interface WebHostOptions {
  desk: DeskDispatcher;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** With --test-clock: the clock POST /api/test/clock/advance moves (in the desk service's process). */
  testClock?: TestClockControl;
  /** How often an idle event stream gets a keep-alive comment. */
  keepAliveMs?: number;
}

/** Moves the desk's adjustable clock forward and answers its offset from the system clock. */
export interface TestClockControl {
  advance(ms: number): number | Promise<number>;
}

export interface RunningWebHost {
  url: string;
  launchUrl: string;
  /** Another one-time launch address (the terminal's way to open a second browser). */
  newLaunchUrl(): string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const clockAdvanceBody = z.object({
  ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3600 * 1000),
});

function securityHeaders<C extends Context>(c: C): void {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) c.header(name, value);
}

function refuse<C extends Context>(c: C, status: 403 | 404 | 421, message: string) {
  return c.json({ ok: false, error: { code: 'forbidden', message } }, status);
}

/** The page for a browser without a session: why, and exactly how to get in. */
export const NO_SESSION_PAGE =
  'This address opens the desk only once: each launch address works once, in one browser. To open the desk here, ' +
  'get a new launch address: press Enter in the terminal where the desk runs (npm run web, or npm start), ' +
  'or, in a browser where the desk is open, choose Settings, then &ldquo;New launch address&rdquo;. Then open that address here.';

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** The page, with the CSRF token only on the launch load (see access.ts). */
function pageHtml(rendererDir: string, csrfToken: string | undefined): string | undefined {
  const found = resolveStaticPath(rendererDir, '/index.html');
  if (found.kind !== 'file') return undefined;
  const html = readFileSync(found.path, 'utf8');
  const metas = [`<meta name="desk-host" content="web">`];
  if (csrfToken) metas.push(`<meta name="${CSRF_META}" content="${escapeAttribute(csrfToken)}">`);
  return html.includes('</head>') ? html.replace('</head>', `${metas.join('')}</head>`) : `${metas.join('')}${html}`;
}

export function buildWebHostApp(
  options: WebHostOptions,
  gateOf: () => AccessGate | undefined,
): Hono<{ Variables: { session: DeskSession } }> {
  const app = new Hono<{ Variables: { session: DeskSession } }>();
  const keepAliveMs = options.keepAliveMs ?? 20_000;

  // DNS rebinding: a foreign name resolving to 127.0.0.1 still carries its own Host header.
  app.use('*', async (c, next) => {
    securityHeaders(c);
    const gate = gateOf();
    if (!gate) return c.text('starting', 503);
    if (!gate.hostAllowed(c.req.header('host'))) return refuse(c, 421, 'this desk answers only to its own address');
    return next();
  });

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
      return c.json(await options.desk.dispatch(c.req.param('method'), input));
    },
  );

  // Only a page that already drives the desk may let another browser in (access.ts).
  app.post('/api/launch-links', (c) => c.json({ ok: true, value: { url: gateOf()!.newLaunchUrl() } }));

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
        return c.json({ ok: true, value: await options.desk.keyImports.put(await c.req.text(), fileName) });
      } catch (error) {
        return c.json({ ok: false, error: toDeskError(error) });
      }
    },
  );

  // The browser's equivalent of the Electron save dialog: the page names only the handle; the
  // bytes, the name and the type are the desk's own (artifacts.ts), served once as an attachment.
  app.get('/api/files/:handle', async (c) => {
    const handle = fileHandleId.safeParse(c.req.param('handle'));
    const file = handle.success ? await options.desk.artifacts.get(handle.data) : undefined;
    if (!file)
      return c.json(
        { ok: false, error: { code: 'not_found', message: 'This file is no longer available: export or download it again' } },
        404,
      );
    options.desk.artifacts.release(file.handle);
    c.header('content-type', file.mimeType);
    c.header(
      'content-disposition',
      `attachment; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    );
    c.header('x-desk-filename', encodeURIComponent(file.filename));
    c.header('x-content-type-options', 'nosniff');
    return c.body(new Uint8Array(file.bytes).buffer);
  });

  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      const unsubscribe = options.desk.onEvent((event) => {
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

  if (options.testClock) {
    const clock = options.testClock;
    app.post('/api/test/clock/advance', async (c) => {
      const parsed = clockAdvanceBody.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success)
        return c.json({ ok: false, error: { code: 'invalid_input', message: 'body must be { "ms": <non-negative integer> }' } }, 400);
      const offsetMs = await clock.advance(parsed.data.ms);
      return c.json({ ok: true, offsetMs });
    });
  }

  app.all('/api/*', (c) => refuse(c, 404, 'no such desk API route'));

  const servePage = (c: Context) => {
    const gate = gateOf()!;
    c.header('cache-control', 'no-store');
    const launch = c.req.query('launch');
    const redeemed = launch ? gate.redeemLaunch(launch) : undefined;
    const session = redeemed ?? gate.sessionOf(c.req.header('cookie'));
    if (!session) {
      return c.html(`<!doctype html><title>Registry Desk</title><p>${NO_SESSION_PAGE}</p>`, 403);
    }
    const html = pageHtml(options.rendererDir, redeemed?.csrfToken);
    if (html === undefined) return c.text('The desk page is not built: run `npm run build`.', 500);
    if (redeemed) c.header('set-cookie', gate.sessionCookie(redeemed));
    return c.html(html);
  };

  app.get('*', (c) => {
    const path = c.req.path;
    if (path === '/' || path === '/index.html' || isDeskPagePath(path)) return servePage(c);
    const found = resolveStaticPath(options.rendererDir, path);
    if (found.kind === 'refused') return c.text('refused', 403);
    // Browsers ask for a favicon on their own; without one, answer "nothing" rather than an error.
    if (found.kind === 'missing' && path === '/favicon.ico') return c.body(null, 204);
    // A screen's address is answered with the page above; anything else but a file is 404.
    if (found.kind === 'missing') return c.text('not found', 404);
    c.header('content-type', contentTypeFor(found.path));
    return c.body(readFileSync(found.path));
  });

  app.all('*', (c) => c.text('method not allowed', 405));
  return app;
}

export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  let gate: AccessGate | undefined;
  const app = buildWebHostApp(options, () => gate);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  gate = createAccessGate(port);
  return {
    url: `http://127.0.0.1:${port}`,
    launchUrl: gate.launchUrl,
    newLaunchUrl: () => gate.newLaunchUrl(),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

/** The key file's name as the page sent it (percent-encoded); undefined for a malformed escape such as `%E0%A4%A`. */
function decodedFileName(header: string | undefined): string | undefined {
  try {
    return decodeURIComponent(header ?? 'key file');
  } catch {
    return undefined;
  }
}
