// `npm run test:e2e`: the Playwright suite split into shards that run side by side, each against its own
// production server, database, mail catcher and Paymob stand-in (ports E2E_PORT_BASE + 10 × shard), so no
// shard sees another's bookings, mail or admin lists. E2E_SHARDS sets how many; the default is two on a machine
// of two cores or more. One shard keeps about one core busy (its browser, server and runner mostly wait on each
// other: 100 s of CPU in 110 s for booking.spec), so on 2 cores two take the suite from 11.3 to 7.9 minutes.
// Tests are split one by one (--fully-parallel), not file by file, so that the shards finish together (by files
// they took 9.2 and 7.2 minutes); each shard still runs its tests in the files' order. Arguments go to
// Playwright; naming spec files runs them in one shard.
import { spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const PLAYWRIGHT = fileURLToPath(new URL('../node_modules/@playwright/test/cli.js', import.meta.url));
const args = process.argv.slice(2);
const base = Number(process.env.E2E_PORT_BASE) || 3100;
const picked = args.some((arg) => !arg.startsWith('-'));
const shards = picked ? 1 : Number(process.env.E2E_SHARDS) || Math.min(2, os.availableParallelism());

function runShard(index) {
  const shardArgs = shards > 1 ? [`--shard=${index}/${shards}`, '--fully-parallel'] : [];
  // Playwright's own command, not through npx, so that a stop signal reaches it.
  const child = spawn(process.execPath, [PLAYWRIGHT, 'test', ...shardArgs, ...args], {
    env: { ...process.env, E2E_PORT_BASE: String(base + 10 * (index - 1)) },
    stdio: shards > 1 ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  children.push(child);
  if (shards > 1) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      readline.createInterface({ input: stream }).on('line', (line) => out.write(`[${index}/${shards}] ${line}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// A stop (Ctrl-C, a CI timeout) is passed on to every shard as the interrupt Playwright stops on.
const children = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGINT');
  });
}

const started = Date.now();
const codes = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)));
if (shards > 1) {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`e2e: ${shards} shards in ${minutes} min, exit codes ${codes.join(', ')}`);
}
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
