// The renderer is served from app://desk/, a privileged standard scheme, never from file:// (which
// would let the page read the disk) nor from a dev server in production. The handler serves only
// files inside out/renderer, refusing path traversal in every spelling (see static-files.ts), and
// puts the desk's CSP on every answer.
import { readFile } from 'node:fs/promises';
import type { CustomScheme } from 'electron';
import { PAGE_SECURITY_HEADERS } from '../core/desk/page-security';
import { contentTypeFor, resolveStaticPath } from '../core/desk/web-host/static-files';
import { isDeskPagePath } from '@shared/desk/pages';

export const APP_SCHEME = 'app';
export const APP_HOST = 'desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** Registered before the app is ready: standard (real origin, relative URLs), secure (like https). */
export const appSchemePrivileges: CustomScheme[] = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
];

const answer = (status: number, text: string) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...PAGE_SECURITY_HEADERS } });

export function createAppProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(400, 'bad address');
    }
    if (url.host !== APP_HOST) return answer(403, 'refused');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'method not allowed');
    // A screen's address (/projects/1006, shared/desk/pages.ts) is the page; any other refused or
    // missing file must look refused or missing.
    const found = resolveStaticPath(rendererDir, isDeskPagePath(url.pathname) ? '/index.html' : url.pathname);
    if (found.kind === 'refused') return answer(403, 'refused');
    if (found.kind === 'missing') return answer(404, 'not found');
    const body = await readFile(found.path);
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: { 'content-type': contentTypeFor(found.path), 'cache-control': 'no-cache', ...PAGE_SECURITY_HEADERS },
    });
  };
}
