// The PostgreSQL bench's own database on the cluster it is given, and the reset between its
// reservation runs.
import { PostgresDatabase } from '@platform/db/postgres';

export function createDatabase(url: string): { url: string; name: string; drop(): void } {
  const name = `registry_bench_${process.pid}`;
  const admin = new PostgresDatabase<unknown>(url);
  try {
    admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    admin.close();
  }
  return {
    name,
    url: `${url}${url.includes('?') ? '&' : '?'}dbname=${name}`,
    drop() {
      const again = new PostgresDatabase<unknown>(url);
      try {
        again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}

/**
 * Cancels every pending reservation and vacuums the table, so that each reservation run starts with
 * no live holds (each reservation sums the holds of its credit: a run after another would be slower).
 */
export function releaseHolds(url: string): void {
  const db = new PostgresDatabase<unknown>(url);
  try {
    db.exec(`UPDATE reservations SET state = 'cancelled' WHERE state = 'pending'`);
    db.exec('VACUUM ANALYZE reservations');
  } finally {
    db.close();
  }
}
