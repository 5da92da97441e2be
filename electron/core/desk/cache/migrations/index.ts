import type { Migration } from '@platform/db/migrate';
import { migration0001 } from './0001-resources';
import { migration0002 } from './0002-search';
import { migration0003 } from './0003-fast-search';
import { migration0004 } from './0004-inventory-credits';
import { migration0005 } from './0005-back-office';
import { migration0006 } from './0006-history-verification';
import { migration0007 } from './0007-history-pin';
import { migration0008 } from './0008-history-reference-index';
import { migration0009 } from './0009-deferred-indexes';
import { migration0010 } from './0010-project-proponent-ids';

/** The desk cache's schema steps, in order; a cache newer than the last is refused. */
export const cacheMigrations: readonly Migration[] = [
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
];
