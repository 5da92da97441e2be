// Where the e2e run keeps what every test starts from (built by global-setup.ts, read by fixtures.ts).
import { resolve } from 'node:path';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/**
 * A registry data folder seeded with the demo data at scale 1 (registry.sqlite and
 * demo-credentials.json), as the desk's first start or `serve --seed demo` makes it. Seeding takes
 * about 2 s of CPU; a copy, a few milliseconds.
 */
export const DEMO_REGISTRY_TEMPLATE = resolve(PROJECT_ROOT, 'out/e2e/demo-registry');

/**
 * A desk data folder (cache, connections, embedded registry) after the desk's first start on a copy
 * of DEMO_REGISTRY_TEMPLATE and its first sync (desk-template.ts).
 */
export const DEMO_DESK_TEMPLATE = resolve(PROJECT_ROOT, 'out/e2e/demo-desk');
