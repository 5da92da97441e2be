// migrations/0008-project-event-comments.ts on PostgreSQL: a project's status history keeps the
// comment given with each status change; events recorded before it have an empty comment.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0008: PostgresMigration = {
  version: 8,
  name: 'project-event-comments',
  sql: `ALTER TABLE project_events ADD COLUMN comment TEXT COLLATE "C" NOT NULL DEFAULT ''`,
};
