// A project's status history keeps the comment the operator gave with each status change (the back
// office asks for one); events recorded before this version have an empty comment.
import type { Migration } from '@platform/db/migrate';

export const migration0008: Migration = {
  version: 8,
  name: 'project-event-comments',
  up(db) {
    db.exec(`ALTER TABLE project_events ADD COLUMN comment TEXT NOT NULL DEFAULT ''`);
  },
};
