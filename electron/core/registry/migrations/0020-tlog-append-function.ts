// Nothing to change on SQLite: its append is already one statement, compiled once per connection
// (transparency/leaf.ts), and its leaves lost their (kind, ref) index at 0019. The version keeps both
// engines' schemas numbered alike (PostgreSQL's 0020 adds `tlog_append` and keeps hashes as bytes there).
import type { Migration } from '@platform/db/migrate';

export const migration0020: Migration = {
  version: 20,
  name: 'tlog-append-function',
  up: () => undefined,
};
