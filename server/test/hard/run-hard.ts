/**
 * npm run test:hard — the slow proofs that do not fit `npm test`:
 *   1. the date rules with the process under TZ=UTC, Africa/Cairo, Pacific/Auckland and America/Los_Angeles;
 *   2. crash safety: kill -9 of the production build and of its PostgreSQL, 10 rounds under load;
 *   3. the restart matrix: each kind of stop (clean, SIGKILL, SIGKILL while stopping, power cut, database cut,
 *      `npm start` killed once npm has exited), then a start at once on the same DATA_DIR;
 *   4. several processes: three production processes on one database behind a round-robin proxy, an on-sale
 *      storm with one of them killed, live updates, caches, sign-outs and scheduled jobs (counted) across them;
 *   5. with TEST_DATABASE_URL set, the integration suite again on that external PostgreSQL (Vitest's `external`
 *      project, vitest.config.ts), which `npm test` leaves out to stay within its time;
 *   6. npm audit --omit=dev: no high or critical vulnerability.
 * Each step runs as its own process (the zone is set for the child, never read here).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
/** A step exits with this code when it could not check anything here (no network, say): not a pass. */
const UNAVAILABLE = 3;
const results: Array<[string, 'ok' | 'FAIL' | 'n/a']> = [];

function step(name: string, command: string, args: string[]): void {
  console.log(`\n=== ${name}`);
  const run = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  results.push([name, run.status === 0 ? 'ok' : run.status === UNAVAILABLE ? 'n/a' : 'FAIL']);
}

for (const zone of ['UTC', 'Africa/Cairo', 'Pacific/Auckland', 'America/Los_Angeles']) {
  step(`date rules under TZ=${zone}`, 'env', [
    `TZ=${zone}`,
    process.execPath,
    vitest,
    'run',
    'server/test/hard/time-zones.test.ts',
  ]);
}
step('production build', process.execPath, [path.join(ROOT, 'scripts/ensure-build.mjs')]);
step('crash safety (10 rounds of kill -9)', process.execPath, [tsx, path.join(import.meta.dirname, 'crash-safety.ts')]);
step('restart matrix (6 kinds of stop)', process.execPath, [tsx, path.join(import.meta.dirname, 'restarts.ts')]);
step('three processes on one database', process.execPath, [tsx, path.join(import.meta.dirname, 'many-processes.ts')]);
if (process.env.TEST_DATABASE_URL) {
  step('the integration suite on the external PostgreSQL', process.execPath, [vitest, 'run', '--project', 'external']);
} else {
  console.log('\n=== the integration suite on an external PostgreSQL: TEST_DATABASE_URL is not set');
  results.push(['the integration suite on an external PostgreSQL', 'n/a']);
}
step('npm audit --omit=dev', process.execPath, [tsx, path.join(import.meta.dirname, 'audit.ts')]);

console.log('\n=== test:hard');
for (const [name, outcome] of results) console.log(`${outcome.padEnd(4)} ${name}`);
if (results.some(([, outcome]) => outcome === 'n/a')) {
  console.log('n/a: could not be checked on this machine (see its output above); not counted as a pass');
}
process.exit(results.some(([, outcome]) => outcome === 'FAIL') ? 1 : 0);
