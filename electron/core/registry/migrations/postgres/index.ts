import { postgresMigration0001 } from './0001-initial';
import { postgresMigration0002 } from './0002-project-list-indexes';
import { postgresMigration0003 } from './0003-covering-holds-index';
import { postgresMigration0004 } from './0004-used-signatures';
import { postgresMigration0005 } from './0005-operators';
import { postgresMigration0006 } from './0006-changes-feed';
import { postgresMigration0007 } from './0007-ledger-trail';
import { postgresMigration0008 } from './0008-project-event-comments';
import { postgresMigration0009 } from './0009-rate-limit-buckets';
import { postgresMigration0010 } from './0010-feed-bounds';
import { postgresMigration0011 } from './0011-covering-movements-index';
import { postgresMigration0012 } from './0012-append-only-inserts';
import { postgresMigration0014 } from './0014-transparency-log';
import { postgresMigration0015 } from './0015-tlog-leaf-hash-only';
import { postgresMigration0016 } from './0016-account-totals';
import { postgresMigration0017 } from './0017-tlog-insert-guards';
import { postgresMigration0018 } from './0018-tlog-head-from-leaves';
import { postgresMigration0019 } from './0019-tlog-refs-at-checkpoint';
import { postgresMigration0020 } from './0020-tlog-append-function';
import type { PostgresMigration } from '@platform/db/postgres-migrate';

// Version 13 does nothing: see ../index.ts.
const reserved = (version: number): PostgresMigration => ({ version, name: `reserved-${version}`, sql: 'SELECT 1' });

/** The registry's migrations on PostgreSQL: the same steps, numbered as migrations/index.ts. */
export const registryPostgresMigrations = [
  postgresMigration0001,
  postgresMigration0002,
  postgresMigration0003,
  postgresMigration0004,
  postgresMigration0005,
  postgresMigration0006,
  postgresMigration0007,
  postgresMigration0008,
  postgresMigration0009,
  postgresMigration0010,
  postgresMigration0011,
  postgresMigration0012,
  reserved(13),
  postgresMigration0014,
  postgresMigration0015,
  postgresMigration0016,
  postgresMigration0017,
  postgresMigration0018,
  postgresMigration0019,
  postgresMigration0020,
] as const;
