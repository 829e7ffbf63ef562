import type { Queryable } from '../../db/client';
import { migrationsApplied } from '../../db/migrate';
import { pingDatabase } from './repository';

export interface HealthServiceDeps {
  /** node-postgres directly: the check must not depend on anything but a connection and one query. */
  pool: Queryable;
}

export type Readiness = { ready: true } | { ready: false; reason: 'database' | 'migrations' };

export interface HealthService {
  /** Whether the database answers a query now (false while it is restarting or unreachable). */
  databaseReachable(): Promise<boolean>;
  /** Whether this process can serve: the database answers and has every migration of this build. */
  readiness(): Promise<Readiness>;
}

export function createHealthService({ pool }: HealthServiceDeps): HealthService {
  // Migrations are never taken back: once applied, that part of the answer is settled.
  let migrated = false;
  async function databaseReachable() {
    try {
      await pingDatabase(pool);
      return true;
    } catch {
      return false;
    }
  }
  return {
    databaseReachable,
    async readiness() {
      if (!(await databaseReachable())) return { ready: false, reason: 'database' };
      if (!migrated) migrated = await migrationsApplied(pool).catch(() => false);
      return migrated ? { ready: true } : { ready: false, reason: 'migrations' };
    },
  };
}
