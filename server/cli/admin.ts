import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { i18nOf } from '../../contracts/i18n/all';
import { type Database, type Db, openDatabase } from '../db/client';
import { users } from '../db/schema';
import { type AppConfig, ConfigError, loadConfig } from '../env';
import { createDoorStaffService } from '../features/tickets/door-staff-service';
import { AppError } from '../plugins/errors';
import { withServerDatabase } from './database';

/**
 * `npm run admin -- grant <email>` promotes an existing account to admin; `revoke <email>` makes it a
 * user again. `door-staff grant <email> <eventId>`, `door-staff revoke <email> <eventId>` and `door-staff list
 * <eventId>` give, take and show the door of an event (check-in there and nothing else). It reaches the same database as the server: DATABASE_URL, or the embedded PostgreSQL in
 * DATA_DIR — through the running app's Unix socket when the app is up (a cluster cannot be started
 * twice), otherwise by starting it for the duration of the command.
 */

export type RoleChange = 'grant' | 'revoke';

/** Sets the role of the account with that email; false when there is no such account. */
export async function changeRole(db: Db, email: string, change: RoleChange): Promise<boolean> {
  const role = change === 'grant' ? 'admin' : 'user';
  const updated = await db
    .update(users)
    .set({ role })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ id: users.id });
  return updated.length > 0;
}

/** Runs `work` with the server's database (cli/database.ts says how it is reached), closed afterwards. */
async function withDatabase<T>(config: AppConfig, work: (database: Database) => Promise<T>): Promise<T> {
  return withServerDatabase(config, async (connection) => {
    const database = openDatabase(connection);
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  });
}

const USAGE = [
  'Usage: npm run admin -- grant <email>   (or: revoke <email>)',
  '       npm run admin -- door-staff grant <email> <eventId>   (or: revoke <email> <eventId>, list <eventId>)',
].join('\n');

type CliResult = { code: number; message: string };

/** `door-staff grant|revoke <email> <eventId>`, `door-staff list <eventId>`. */
export async function runDoorStaffCommand(database: Database, args: string[]): Promise<CliResult> {
  const [command, ...rest] = args;
  const doorStaff = createDoorStaffService({ db: database.pool });
  try {
    if (command === 'list' && rest.length === 1) {
      const eventId = rest[0] as string;
      const people = await doorStaff.list(eventId);
      if (people.length === 0) return { code: 0, message: `Nobody is on the door staff of event ${eventId}.` };
      return { code: 0, message: people.map((p) => `${p.email}\t${p.name}\tsince ${p.grantedAt}`).join('\n') };
    }
    if ((command === 'grant' || command === 'revoke') && rest.length === 2) {
      const [email, eventId] = rest as [string, string];
      if (command === 'grant') {
        await doorStaff.grant(eventId, email);
        return { code: 0, message: `${email} may now check tickets in at event ${eventId}.` };
      }
      const person = (await doorStaff.list(eventId)).find((p) => p.email.toLowerCase() === email.trim().toLowerCase());
      if (!person) return { code: 1, message: `${email} is not on the door staff of event ${eventId}.` };
      await doorStaff.revoke(eventId, person.userId);
      return { code: 0, message: `${email} is no longer on the door staff of event ${eventId}.` };
    }
  } catch (error) {
    // An unknown event or email: said plainly, as the admin page says it (in English: a message key is worded).
    if (error instanceof AppError && error.status < 500) return { code: 1, message: i18nOf('en').text(error.message) };
    throw error;
  }
  return { code: 2, message: USAGE };
}

export async function runAdminCli(args: string[], config: AppConfig): Promise<CliResult> {
  const [command, email, ...rest] = args;
  if (command === 'door-staff') {
    return withDatabase(config, (database) => runDoorStaffCommand(database, args.slice(1)));
  }
  if ((command !== 'grant' && command !== 'revoke') || !email || rest.length > 0) return { code: 2, message: USAGE };
  const changed = await withDatabase(config, (database) => changeRole(database.db, email, command));
  if (!changed) return { code: 1, message: `No account with the email ${email}. Sign up first, then run this again.` };
  return {
    code: 0,
    message: command === 'grant' ? `${email} is now an admin.` : `${email} is now a regular user.`,
  };
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  try {
    const { code, message } = await runAdminCli(process.argv.slice(2), config);
    (code === 0 ? console.log : console.error)(message);
    process.exit(code);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
