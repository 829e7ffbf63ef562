import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { RestoreRefused, restoreBackup, writeBackup } from '../db/backup';
import { runMigrations } from '../db/migrate';
import { type AppConfig, ConfigError, loadConfig } from '../env';
import { withServerDatabase } from './database';

/**
 * `npm run backup -- <file>` writes one consistent archive of the database, the uploaded pictures (unless they
 * live in an S3 bucket, which is backed up on its own) and the secrets kept in DATA_DIR, while the app runs.
 * `npm run restore -- <file>` fills an empty DATA_DIR (or an empty external database) from it; then start
 * Eventry as usual. Both reach the database as the server does (server/cli/database.ts).
 */

/** Secrets a start generates into DATA_DIR when the environment gives none (server/start.ts, db/embedded.ts). */
const SECRET_FILES = ['.auth-secret'];

export async function runBackupCli(command: string, args: string[], config: AppConfig): Promise<string> {
  const [file, ...rest] = args;
  if (!file || rest.length > 0) return Promise.reject(new Error(`Usage: npm run ${command} -- <file>`));
  const target = path.resolve(file);
  const uploadsDir = config.s3 ? undefined : path.join(config.dataDir, 'uploads');
  if (command === 'backup') {
    const summary = await withServerDatabase(config, async (connection) => {
      const pool = new pg.Pool({ ...connection, max: 1 });
      try {
        return await writeBackup(pool, target, {
          uploadsDir,
          secretFiles: config.authSecret ? [] : SECRET_FILES.map((name) => path.join(config.dataDir, name)),
        });
      } finally {
        await pool.end();
      }
    });
    const rows = Object.values(summary.tables).reduce((sum, n) => sum + n, 0);
    return `Backed up ${rows} rows of ${Object.keys(summary.tables).length} tables and ${summary.files} pictures to ${target}${config.s3 ? ' (the pictures in the S3 bucket are not in it: back the bucket up on its own)' : ''}.`;
  }
  const summary = await withServerDatabase(
    config,
    async (connection) => {
      const pool = new pg.Pool({ ...connection, max: 2 });
      try {
        await runMigrations(pool);
        return await restoreBackup(pool, target, { uploadsDir, secretsDir: config.dataDir });
      } finally {
        await pool.end();
      }
    },
    { create: true },
  );
  const rows = Object.values(summary.tables).reduce((sum, n) => sum + n, 0);
  return `Restored ${rows} rows and ${summary.files} pictures from ${target}. Start Eventry as usual.`;
}

async function main(): Promise<void> {
  const command = process.argv[2] === 'restore' ? 'restore' : 'backup';
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(`Invalid configuration: ${error instanceof ConfigError ? error.message : String(error)}`);
    process.exit(1);
  }
  try {
    console.log(await runBackupCli(command, process.argv.slice(3), config));
    process.exit(0);
  } catch (error) {
    console.error(error instanceof RestoreRefused ? `Not restored: ${error.message}` : (error as Error).message);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
