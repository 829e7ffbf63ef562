import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, found from this module whether it runs from source (tsx) or from dist/. */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the project root (no package.json above this file)');
    dir = parent;
  }
}

export const rootDir = findRoot();
export const migrationsDir = path.join(rootDir, 'server', 'db', 'migrations');
export const featuresDir = path.join(rootDir, 'server', 'features');
export const webDistDir = path.join(rootDir, 'dist', 'web');
