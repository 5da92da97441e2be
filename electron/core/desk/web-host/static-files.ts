// Maps a URL path to a file inside the built renderer folder, refusing anything that would leave
// it: `..` segments (plain or percent-encoded), encoded slashes and backslashes, NUL bytes, and
// symbolic links pointing outside. Used by the web host and by the Electron app:// protocol.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';

export type StaticLookup = { kind: 'file'; path: string } | { kind: 'refused' } | { kind: 'missing' };

export function resolveStaticPath(rootDir: string, urlPathname: string): StaticLookup {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPathname);
  } catch {
    return { kind: 'refused' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'refused' };
  if (decoded.split('/').some((segment) => segment === '..')) return { kind: 'refused' };
  const root = resolve(rootDir);
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const candidate = resolve(root, relative);
  if (candidate !== root && !candidate.startsWith(root + sep)) return { kind: 'refused' };
  if (!existsSync(candidate) || !statSync(candidate).isFile()) return { kind: 'missing' };
  // A symbolic link inside the folder may still point out of it.
  const real = realpathSync(candidate);
  const realRoot = realpathSync(root);
  if (!real.startsWith(realRoot + sep)) return { kind: 'refused' };
  return { kind: 'file', path: real };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export const contentTypeFor = (path: string): string => CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
