// What a serving process does with an error nobody caught. A rejected promise nobody awaited leaves
// no state half-changed: it is logged and the process serves on. A thrown exception that reached
// the event loop is logged and, when it is a database fault (the database went away under a timer
// or a callback; the engine reconnects by itself), the process serves on too; anything else is a
// bug whose damage is unknown, so the process exits 1 for its supervisor to start a fresh one.
import { DatabaseBusyError, DatabaseUnavailableError } from '@platform/db/database';
import { PostgresError } from '@platform/db/postgres';

const describe = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/** Errors that come from the database, not from this process's own state. */
export function isDatabaseFault(error: unknown): boolean {
  return error instanceof DatabaseUnavailableError || error instanceof DatabaseBusyError || error instanceof PostgresError;
}

export function installProcessPolicy(log: (line: string) => void, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('unhandledRejection', (reason) => {
    log(`unhandled rejection (serving on): ${describe(reason)}`);
  });
  process.on('uncaughtException', (error) => {
    if (isDatabaseFault(error)) {
      log(`uncaught database error (serving on): ${describe(error)}`);
      return;
    }
    log(`fatal: uncaught exception, exiting: ${describe(error)}`);
    exit(1);
  });
}
