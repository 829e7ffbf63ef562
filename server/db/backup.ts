import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';

/**
 * Backups: one gzip'd file of JSON lines holding a consistent copy of every table (read in one
 * REPEATABLE READ snapshot, while the app keeps running), the uploaded pictures and the secrets kept in
 * DATA_DIR; and its restore into an empty database. The embedded PostgreSQL ships no pg_dump, and an
 * external server's pg_dump must match its version: this needs neither, and a restore checks the archive
 * comes from the same schema (the same migrations) before it writes anything.
 *
 * Lines: {t:'header', format, version, migrations, createdAt}, then {t:'rows', table, rows} in batches (tables in
 * an order where every foreign key points back), {t:'file', path, data (base64)}, {t:'secret', name, value},
 * and {t:'end', tables: {name: rows}, files}. An archive without its end line is refused.
 */

const FORMAT = 'eventry-backup';
const VERSION = 1;
const BATCH = 1000;

type Line =
  | { t: 'header'; format: string; version: number; migrations: number; createdAt: string }
  | { t: 'rows'; table: string; rows: unknown[] }
  | { t: 'file'; path: string; data: string }
  | { t: 'secret'; name: string; value: string }
  | { t: 'end'; tables: Record<string, number>; files: number };

export interface BackupSummary {
  migrations: number;
  tables: Record<string, number>;
  files: number;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The app's tables, parents before children (every foreign key points to a table earlier in the list). */
async function tablesInOrder(client: pg.PoolClient): Promise<string[]> {
  const tables = (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
    )
  ).rows.map((row) => row.name);
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
         JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE k.contype = 'f' AND n.nspname = 'public' AND c.relname <> p.relname`,
    )
  ).rows;
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (table) => !placed.has(table) && edges.every((e) => e.child !== table || placed.has(e.parent)),
    );
    if (ready.length === 0) throw new Error('the tables’ foreign keys form a cycle');
    for (const table of ready) {
      ordered.push(table);
      placed.add(table);
    }
  }
  return ordered;
}

async function appliedMigrations(client: pg.PoolClient): Promise<number> {
  const result = await client.query<{ n: number }>(
    `SELECT CASE WHEN to_regclass('drizzle.__drizzle_migrations') IS NULL THEN 0
                 ELSE (SELECT count(*)::int FROM drizzle.__drizzle_migrations) END AS n`,
  );
  return result.rows[0]?.n ?? 0;
}

async function* filesUnder(root: string, dir = ''): AsyncGenerator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(path.join(root, dir), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(root, relative);
    else if (entry.isFile()) yield relative;
  }
}

/**
 * Writes a backup of the database (and of `uploadsDir`'s files and `secretFiles`, when given) to `file`. The
 * tables are read in one snapshot: what the app commits meanwhile is either wholly in it or not at all.
 */
export async function writeBackup(
  pool: Pick<pg.Pool, 'connect'>,
  file: string,
  options: { uploadsDir?: string; secretFiles?: string[] } = {},
): Promise<BackupSummary> {
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(`${file}.partial`));
  const write = (line: Line) =>
    new Promise<void>((resolve, reject) => {
      if (gzip.write(`${JSON.stringify(line)}\n`)) resolve();
      else gzip.once('drain', resolve).once('error', reject);
    });
  const tables: Record<string, number> = {};
  let files = 0;
  let migrations = 0;
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    migrations = await appliedMigrations(client);
    await write({ t: 'header', format: FORMAT, version: VERSION, migrations, createdAt: new Date().toISOString() });
    for (const table of await tablesInOrder(client)) {
      tables[table] = 0;
      await client.query(`DECLARE dump CURSOR FOR SELECT row_to_json(t)::text AS row FROM public.${quote(table)} t`);
      for (;;) {
        const batch = await client.query<{ row: string }>(`FETCH ${BATCH} FROM dump`);
        if (batch.rows.length === 0) break;
        tables[table] += batch.rows.length;
        await write({ t: 'rows', table, rows: batch.rows.map((r) => JSON.parse(r.row)) });
      }
      await client.query('CLOSE dump');
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    gzip.destroy();
    await written.catch(() => {});
    await rm(`${file}.partial`, { force: true });
    throw error;
  } finally {
    client.release();
  }
  if (options.uploadsDir) {
    for await (const relative of filesUnder(options.uploadsDir)) {
      // A picture removed since the snapshot is simply not there any more (nothing the snapshot shows uses it).
      const data = await readFile(path.join(options.uploadsDir, relative)).catch(() => undefined);
      if (!data) continue;
      await write({ t: 'file', path: relative.split(path.sep).join('/'), data: data.toString('base64') });
      files++;
    }
  }
  for (const secret of options.secretFiles ?? []) {
    const value = await readFile(secret, 'utf8').catch(() => undefined);
    if (value !== undefined) await write({ t: 'secret', name: path.basename(secret), value: value.trim() });
  }
  await write({ t: 'end', tables, files });
  gzip.end();
  await written;
  await rename(`${file}.partial`, file);
  return { migrations, tables, files };
}

export class RestoreRefused extends Error {}

/**
 * Restores `file` into a database that has this build's migrations and no data of its own (no users or
 * events), the pictures into `uploadsDir`, the secrets into `secretsDir`.
 * The secrets overwrite any there. The tables are filled in one transaction: an archive that is cut short or refused leaves the database as
 * it was.
 */
export async function restoreBackup(
  pool: Pick<pg.Pool, 'connect'>,
  file: string,
  options: { uploadsDir?: string; secretsDir?: string } = {},
): Promise<BackupSummary> {
  let lines: ReturnType<typeof createInterface> | undefined;
  const client = await pool.connect();
  const staging = options.uploadsDir ? `${options.uploadsDir}.restoring` : undefined;
  const secrets: Array<{ name: string; value: string }> = [];
  const tables: Record<string, number> = {};
  let files = 0;
  let header: Extract<Line, { t: 'header' }> | undefined;
  let ended = false;
  try {
    await client.query('BEGIN');
    const ours = await tablesInOrder(client);
    // Made only now: lines read before the loop asks for them would be lost.
    lines = createInterface({
      input: createReadStream(file).pipe(createGunzip()),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const text of lines) {
      if (!text) continue;
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        throw new RestoreRefused(`${file} is not an Eventry backup (a line is not JSON)`);
      }
      if (!header) {
        if (line.t !== 'header' || line.format !== FORMAT) throw new RestoreRefused(`${file} is not an Eventry backup`);
        if (line.version !== VERSION) throw new RestoreRefused(`${file} is a backup of format ${line.version}`);
        const here = await appliedMigrations(client);
        if (line.migrations !== here) {
          throw new RestoreRefused(
            `${file} was made with ${line.migrations} migrations and this database has ${here}: restore it with the Eventry version that made it, then upgrade`,
          );
        }
        const existing = await client.query<{ n: number }>(
          'SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM events) AS n',
        );
        if (Number(existing.rows[0]?.n) > 0) {
          throw new RestoreRefused('the database already has users or events: restore into an empty one');
        }
        // Reference data a start wrote (categories, say) gives way to the archive's.
        await client.query(`TRUNCATE ${ours.map((t) => `public.${quote(t)}`).join(', ')}`);
        // Triggers would issue tickets for paid bookings and announce changes: the archive has the results.
        for (const table of ours) await client.query(`ALTER TABLE public.${quote(table)} DISABLE TRIGGER USER`);
        for (const table of ours) tables[table] = 0;
        header = line;
        continue;
      }
      if (ended) throw new RestoreRefused(`${file} goes on after its end`);
      if (line.t === 'rows') {
        if (!ours.includes(line.table))
          throw new RestoreRefused(`${file} has a table this version does not: ${line.table}`);
        await client.query(
          `INSERT INTO public.${quote(line.table)} SELECT * FROM json_populate_recordset(NULL::public.${quote(line.table)}, $1::json)`,
          [JSON.stringify(line.rows)],
        );
        tables[line.table] = (tables[line.table] ?? 0) + line.rows.length;
      } else if (line.t === 'file') {
        if (!staging) continue;
        const target = path.resolve(staging, line.path);
        if (!target.startsWith(path.resolve(staging) + path.sep))
          throw new RestoreRefused(`${file} names a file outside the uploads`);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, Buffer.from(line.data, 'base64'));
        files++;
      } else if (line.t === 'secret') {
        secrets.push({ name: path.basename(line.name), value: line.value });
      } else if (line.t === 'end') {
        const counted = Object.entries(line.tables).every(([table, n]) => (tables[table] ?? 0) === n);
        if (!counted || (staging && files !== line.files))
          throw new RestoreRefused(`${file} does not hold what its end says`);
        ended = true;
      }
    }
    if (!header || !ended) throw new RestoreRefused(`${file} is cut short (it has no end): not restored`);
    for (const table of ours) await client.query(`ALTER TABLE public.${quote(table)} ENABLE TRIGGER USER`);
    // Serial columns go on after the largest restored value.
    const serials = await client.query<{ table: string; column: string }>(
      `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
        WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`,
    );
    for (const { table, column } of serials.rows) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${quote(column)}) FROM public.${quote(table)}), 1),
                       (SELECT max(${quote(column)}) FROM public.${quote(table)}) IS NOT NULL)`,
        [`public.${quote(table)}`, column],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (staging) await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    client.release();
    lines?.close();
  }
  if (staging && options.uploadsDir) {
    await mkdir(options.uploadsDir, { recursive: true });
    for await (const relative of filesUnder(staging)) {
      await mkdir(path.dirname(path.join(options.uploadsDir, relative)), { recursive: true });
      await rename(path.join(staging, relative), path.join(options.uploadsDir, relative));
    }
    await rm(staging, { recursive: true, force: true });
  }
  if (options.secretsDir) {
    // The sessions restored were signed with these: a secret a first start generated here gives way.
    for (const { name, value } of secrets) {
      await writeFile(path.join(options.secretsDir, name), `${value}\n`, { mode: 0o600 });
    }
  }
  return { migrations: header.migrations, tables, files };
}
