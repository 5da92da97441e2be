// Command-line options shared by `npm run web`, `npm start` and the Electron shell:
//   --data <dir>                 the desk's data folder
//   --port <p>                   web host port (0 or absent: any free port)
//   --registry-url <url> --app-id <id> --key-file <pem>
//                                start with this remote registry instead of the embedded one
//   --test-clock                 e2e tests: an adjustable clock shared by the embedded registry and the desk
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { registryUrl } from '@shared/desk/api';
import { zodMessages } from '../platform/zod-messages';

export interface RemoteLaunch {
  baseUrl: string;
  appId: string;
  privateKeyPem: string;
}

export interface LaunchOptions {
  dataDir?: string;
  port: number;
  remote?: RemoteLaunch;
  testClock: boolean;
}

const schema = z
  .object({
    data: z.string().min(1).optional(),
    port: z.string().regex(/^\d+$/, 'must be a port number').transform(Number).pipe(z.number().int().min(0).max(65535)).optional(),
    'registry-url': registryUrl.optional(),
    'app-id': z.string().min(1).optional(),
    'key-file': z.string().min(1).optional(),
    'test-clock': z.boolean().optional(),
  })
  .refine(
    (o) =>
      [o['registry-url'], o['app-id'], o['key-file']].every((v) => v === undefined) ||
      [o['registry-url'], o['app-id'], o['key-file']].every((v) => v !== undefined),
    {
      message: '--registry-url, --app-id and --key-file go together',
    },
  );

export class LaunchOptionsError extends Error {}

export function parseLaunchOptions(argv: readonly string[]): LaunchOptions {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        data: { type: 'string' },
        port: { type: 'string' },
        'registry-url': { type: 'string' },
        'app-id': { type: 'string' },
        'key-file': { type: 'string' },
        'test-clock': { type: 'boolean' },
      },
      // Electron and Chromium add switches of their own; they are not ours to refuse.
      strict: false,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new LaunchOptionsError((error as Error).message);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new LaunchOptionsError(`invalid options: ${zodMessages(parsed.error.issues).join('; ')}`);
  const o = parsed.data;
  let remote: RemoteLaunch | undefined;
  if (o['registry-url'] && o['app-id'] && o['key-file']) {
    let pem: string;
    try {
      pem = readFileSync(o['key-file'], 'utf8');
    } catch (error) {
      throw new LaunchOptionsError(`--key-file ${o['key-file']} cannot be read: ${(error as Error).message}`);
    }
    remote = { baseUrl: o['registry-url'], appId: o['app-id'], privateKeyPem: pem };
  }
  return { ...(o.data ? { dataDir: o.data } : {}), port: o.port ?? 0, ...(remote ? { remote } : {}), testClock: o['test-clock'] ?? false };
}
