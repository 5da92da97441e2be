// The headless registry: `npm run serve -- (--data <dir> | --database postgres://…) [--port <p>] [--host <h>]
// [--seed demo [--scale <n>]] [--rate-limit <requests>/<seconds>] [--max-body <bytes>[k|m]] [--public-url <url>]
// [--trusted-proxy <ip>,…] [--max-connections-per-address <n>] [--test-clock]`.
// Prints `listening on http://<host>:<port>` on its own line once it accepts requests (the desk and
// the tests wait for that line), and stops cleanly on SIGINT / SIGTERM.
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { AdjustableClock, systemClock } from '@platform/clock';
import { startRegistryServer } from '../http/server';
import { redactUrl } from '@platform/db/postgres';
import { openPostgresRegistry, openRegistry } from '../open';
import { isRegistryEmpty, seedDemo } from '../seed';
import { CliError, failInWords } from './args';
import { mountTestClock } from './test-clock-route';
import { installProcessPolicy } from './process-policy';

const serveOptions = z.object({
  data: z.string().min(1).optional(),
  database: z
    .string()
    .regex(/^postgres(ql)?:\/\//, '--database: a PostgreSQL URL, postgres://user@host:port/database')
    .optional(),
  credentialsDir: z.string().min(1).optional(),
  port: z.coerce
    .number()
    .int()
    .min(0, '--port: 0 to 65535 (0 = any free port)')
    .max(65535, '--port: 0 to 65535 (0 = any free port)')
    .default(8080),
  host: z.string().min(1).default('127.0.0.1'),
  seed: z.enum(['demo'], { error: '--seed: the only seed is "demo"' }).optional(),
  scale: z.coerce.number().int('--scale: a whole number').min(1).max(500).default(1),
  rateLimit: z
    .string()
    .regex(/^\d+\/\d+$/, '--rate-limit: <requests>/<seconds>, e.g. 100/60')
    .transform((s) => {
      const [requests, seconds] = s.split('/').map(Number) as [number, number];
      return { requests, windowMs: seconds * 1000 };
    })
    .refine((r) => r.requests > 0 && r.windowMs > 0, '--rate-limit: both numbers must be above 0')
    .optional(),
  publicUrl: z
    .url({ protocol: /^https?$/, error: '--public-url: an http(s) URL' })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  maxBody: z
    .string()
    .regex(/^\d+(k|m)?$/i, '--max-body: bytes, or with a k or m suffix (e.g. 1m, 512k, 2000000)')
    .transform((s) => Number(s.replace(/[km]$/i, '')) * ({ k: 1024, m: 1024 * 1024 }[s.slice(-1).toLowerCase()] ?? 1))
    .refine((n) => n >= 1 && n <= 1024 * 1024 * 1024, '--max-body: from 1 byte to 1024m')
    .optional(),
  testClock: z.boolean().default(false),
  maxConnectionsPerAddress: z.coerce
    .number()
    .int('--max-connections-per-address: a whole number')
    .min(1, '--max-connections-per-address: from 1 to 100000')
    .max(100_000, '--max-connections-per-address: from 1 to 100000')
    .optional(),
  trustedProxy: z
    .string()
    .transform((s) => s.split(',').map((a) => a.trim()))
    .refine((list) => list.every((a) => isIP(a.replace(/^::ffff:/i, '')) !== 0), '--trusted-proxy: comma-separated IP addresses')
    .optional(),
});

const USAGE = `npm run serve -- --data <dir> [options]
       npm run serve -- --database postgres://user@host:port/db [options]
  --data <dir>                  the registry on SQLite: registry.sqlite in this folder (one process)
  --database <url>              the shared registry on PostgreSQL (any number of processes on one database)
  --credentials-dir <dir>       with --database: where --seed demo writes demo-credentials.json (default .)
  --port <p>                    port to listen on (default 8080; 0 = any free port)
  --host <h>                    address to listen on (default 127.0.0.1)
  --seed demo [--scale <n>]     fill an EMPTY data folder with the demo registry (scale 1 = ~100 projects)
  --rate-limit <n>/<seconds>    per-app (and per-address failed-auth) limit, e.g. 100/60 (off by default)
  --max-body <bytes>[k|m]       largest request body accepted (default 1m); larger is 413
  --max-connections-per-address <n>  connections one client address may hold open (default 256); more: 429
  --trusted-proxy <ip>[,<ip>]   load balancers whose X-Forwarded-For names the client (for --rate-limit);
                                exempt from --max-connections-per-address
  --public-url <url>            base of the registry's public website, used in publicUrl fields
  --test-clock                  END-TO-END TESTS ONLY: mount POST /__test__/clock/advance {"ms": n}`;

const say = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`${line}\n`);

function readOptions(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        data: { type: 'string' },
        database: { type: 'string' },
        'credentials-dir': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        scale: { type: 'string' },
        'rate-limit': { type: 'string' },
        'public-url': { type: 'string' },
        'max-body': { type: 'string' },
        'trusted-proxy': { type: 'string' },
        'max-connections-per-address': { type: 'string' },
        'test-clock': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  if (values.help) {
    say(USAGE);
    process.exit(0);
  }
  const parsed = serveOptions.safeParse({
    data: values.data,
    database: values.database,
    credentialsDir: values['credentials-dir'],
    port: values.port,
    host: values.host,
    seed: values.seed,
    scale: values.scale,
    rateLimit: values['rate-limit'],
    publicUrl: values['public-url'],
    maxBody: values['max-body'],
    trustedProxy: values['trusted-proxy'],
    maxConnectionsPerAddress: values['max-connections-per-address'],
    testClock: values['test-clock'],
  });
  if (!parsed.success) throw new CliError(parsed.error.issues.map((i) => i.message).join('; '));
  if (values.scale !== undefined && !parsed.data.seed) throw new CliError('--scale goes with --seed demo');
  const { data, database } = parsed.data;
  if (data && database) throw new CliError('--data (SQLite) and --database (PostgreSQL): give one of them');
  if (!data && !database) throw new CliError('--data <dir> (the registry data folder) or --database <postgres URL> is required');
  if (parsed.data.credentialsDir && !database)
    throw new CliError(
      '--credentials-dir goes with --database only: with --data, --seed demo writes demo-credentials.json into the --data folder',
    );
  return parsed.data;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  installProcessPolicy(warn);
  const testClock = options.testClock ? new AdjustableClock() : undefined;
  if (testClock)
    warn(
      `WARNING: --test-clock is for end-to-end tests only: anyone who can reach this server can move its clock (POST /__test__/clock/advance).`,
    );

  const common = {
    clock: testClock ?? systemClock,
    ...(options.publicUrl ? { urls: { publicBaseUrl: options.publicUrl } } : {}),
  };
  const registry = options.database
    ? openPostgresRegistry({ databaseUrl: options.database, ...common })
    : openRegistry({ dataDir: options.data!, ...common });
  const where = options.database ? redactUrl(options.database) : options.data!;
  try {
    if (options.seed === 'demo') {
      if (isRegistryEmpty(registry)) {
        say(`seeding the demo registry (scale ${options.scale})…`);
        const dataDir = options.database ? (options.credentialsDir ?? '.') : options.data!;
        const seeded = seedDemo(registry, { scale: options.scale, dataDir });
        const c = seeded.counts;
        say(
          `seeded in ${(seeded.elapsedMs / 1000).toFixed(1)} s: ${c.organizations} organizations, ${c.projects} projects, ${c.credits} credits, ${c.retirements} retirements`,
        );
        say(`demo credentials (DEMO ONLY: keys for this throwaway registry, file mode 0600): ${seeded.credentialsFile}`);
      } else {
        say(`${where} already holds a registry: keeping the existing data (not seeding)`);
      }
    }
  } catch (error) {
    registry.close();
    throw error;
  }

  const server = await startRegistryServer({
    registry,
    port: options.port,
    host: options.host,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.maxBody !== undefined ? { maxBodyBytes: options.maxBody } : {}),
    ...(options.trustedProxy ? { trustedProxies: options.trustedProxy } : {}),
    ...(options.maxConnectionsPerAddress !== undefined ? { connectionLimits: { perAddress: options.maxConnectionsPerAddress } } : {}),
    ...(testClock ? { extraRoutes: (app) => mountTestClock(app, testClock) } : {}),
    log: warn,
  }).catch((error: unknown) => {
    registry.close();
    throw new CliError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  });
  say(`listening on ${server.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping`);
    server
      .close()
      .then(() => {
        registry.close();
        process.exit(0);
      })
      .catch((error: unknown) => {
        warn(`error while stopping: ${(error as Error).message}`);
        registry.close();
        process.exit(1);
      });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => failInWords('serve', error));
