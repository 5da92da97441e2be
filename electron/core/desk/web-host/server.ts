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
import type { DeskDispatcher } from '../dispatcher';
import { PAGE_SECURITY_HEADERS } from '../page-security';
import { CSRF_META, createAccessGate, type AccessGate } from './access';
import {
  addDeskCalls,
  addEventStream,
  addFileRoutes,
  addTestClock,
  guardApi,
  refuse,
  type DeskApp,
  type TestClockControl,
} from './api-routes';
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

export type { TestClockControl };

export interface RunningWebHost {
  url: string;
  launchUrl: string;
  /** Another one-time launch address (the terminal's way to open a second browser). */
  newLaunchUrl(): string;
  port: number;
  close(): Promise<void>;
}

function securityHeaders<C extends Context>(c: C): void {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) c.header(name, value);
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

export function buildWebHostApp(options: WebHostOptions, gateOf: () => AccessGate | undefined): DeskApp {
  const app: DeskApp = new Hono();
  const keepAliveMs = options.keepAliveMs ?? 20_000;

  // DNS rebinding: a foreign name resolving to 127.0.0.1 still carries its own Host header.
  app.use('*', async (c, next) => {
    securityHeaders(c);
    const gate = gateOf();
    if (!gate) return c.text('starting', 503);
    if (!gate.hostAllowed(c.req.header('host'))) return refuse(c, 421, 'this desk answers only to its own address');
    return next();
  });

  guardApi(app, gateOf);
  addDeskCalls(app, options.desk, gateOf);
  addFileRoutes(app, options.desk);
  addEventStream(app, options.desk, keepAliveMs);
  if (options.testClock) addTestClock(app, options.testClock);
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
