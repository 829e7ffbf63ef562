// Rebuilds dist/ only when a source file is newer than the last build, so `npm start` stays fast.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const stamp = path.join(root, 'dist/.build-stamp');

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts')) continue;
    max = Math.max(max, newest(path.join(target, entry)));
  }
  return max;
}

// The server bundle includes the dependencies, so a changed lock file means a rebuild too.
const sources = [
  'contracts',
  'server',
  'web',
  'scripts/build.mjs',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
].map((p) => path.join(root, p));
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (built === 0 || Math.max(...sources.map(newest)) > built) {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
}
