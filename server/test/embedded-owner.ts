/**
 * A stand-in for an app process that owns a data folder's embedded PostgreSQL (server/db/embedded.test.ts):
 * starts it, prints "ready", and stops it when its standard input closes.
 */
import { startEmbeddedPostgres } from '../db/embedded';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: embedded-owner.ts <dataDir>');
const db = await startEmbeddedPostgres({ dataDir, database: 'eventry' });
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void db.stop().then(() => process.exit(0));
});
