// The npm registry mirror on our build machines serves only linux-x64 builds of platform packages, so
// `npm install` here leaves the other platforms' optional packages (biome, rollup, tailwind oxide, esbuild…)
// out of package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds the missing entries
// (version from the parent's optionalDependencies, with os/cpu so npm skips them on other platforms).
// Run it after every `npm install`: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const OSES = ['android', 'darwin', 'win32', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony', 'linux'];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 's390x', 'ppc64', 'loong64', 'wasm32', 'mips64el'];

function platformOf(name) {
  const base = name.split('/').pop();
  const parts = base.split(/[-_]/);
  const os = OSES.find((o) => parts.includes(o));
  const cpu = CPUS.find((c) => parts.includes(c) || (c === 'arm' && parts.includes('gnueabihf')));
  return { os, cpu, musl: parts.includes('musl') };
}

let added = 0;
for (const [key, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const parentDir = key === '' ? '' : `${key}/`;
    if (packages[`${parentDir}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const { os, cpu, musl } = platformOf(name);
    packages[`node_modules/${name}`] = {
      version: version.replace(/^[\^~=]/, ''),
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(musl ? { libc: ['musl'] } : os === 'linux' ? { libc: ['glibc'] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} optional platform entries`);
