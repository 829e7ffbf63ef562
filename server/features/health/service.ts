import type { Queryable } from '../../db/client';
import { pingDatabase } from './repository';

export interface HealthServiceDeps {
  /** node-postgres directly: the check must not depend on anything but a connection and one query. */
  pool: Queryable;
}

export interface HealthService {
  /** Whether the database answers a query now (false while it is restarting or unreachable). */
  databaseReachable(): Promise<boolean>;
}

export function createHealthService({ pool }: HealthServiceDeps): HealthService {
  return {
    async databaseReachable() {
      try {
        await pingDatabase(pool);
        return true;
      } catch {
        return false;
      }
    },
  };
}
