import type { Migration } from '@platform/db/migrate';
import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-project-list-indexes';
import { migration0003 } from './0003-covering-holds-index';
import { migration0004 } from './0004-used-signatures';
import { migration0005 } from './0005-operators';
import { migration0006 } from './0006-changes-feed';
import { migration0007 } from './0007-ledger-trail';
import { migration0008 } from './0008-project-event-comments';
import { migration0009 } from './0009-rate-limit-buckets';
import { migration0010 } from './0010-feed-bounds';
import { migration0011 } from './0011-covering-movements-index';
import { migration0012 } from './0012-append-only-inserts';
import { migration0014 } from './0014-transparency-log';
import { migration0015 } from './0015-tlog-leaf-hash-only';
import { migration0016 } from './0016-account-totals';
import { migration0017 } from './0017-tlog-insert-guards';
import { migration0018 } from './0018-tlog-head-from-leaves';
import { migration0019 } from './0019-tlog-refs-at-checkpoint';
import { migration0020 } from './0020-tlog-append-function';

// Version 13 was kept for a step that turned out not to be needed (the Idempotency-Key claim uses the
// existing key); it does nothing, so every database counts its versions alike. Never reuse it.
const reserved = (version: number): Migration => ({ version, name: `reserved-${version}`, up: () => undefined });

/** Every registry migration, in order. Add a file per step; never edit a released one. */
export const registryMigrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  reserved(13),
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
];
