/**
 * Runs bench/reservations.ts (row 3, owned by bookings) in its own process, so that work still going on
 * after its time limit, or an error it does not catch, cannot take the whole bench run down.
 * Usage: node --import tsx bench/lib/reservations-child.ts <context.json> <result.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [contextFile, resultFile] = process.argv.slice(2) as [string, string];
const context = JSON.parse(readFileSync(contextFile, 'utf8')) as Record<string, unknown>;
const file = path.join(
  path.dirname(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname)),
  'reservations.ts',
);
const module = (await import(pathToFileURL(file).href)) as {
  runReservationsBench?: (ctx: Record<string, unknown>) => Promise<unknown>;
};
if (typeof module.runReservationsBench !== 'function') {
  writeFileSync(resultFile, JSON.stringify({ error: 'bench/reservations.ts does not export runReservationsBench' }));
  process.exit(0);
}
try {
  const result = await module.runReservationsBench({
    ...context,
    log: (message: string) => process.stderr.write(`${message}\n`),
  });
  writeFileSync(resultFile, JSON.stringify({ result }));
  process.exit(0);
} catch (error) {
  writeFileSync(resultFile, JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  process.exit(0);
}
