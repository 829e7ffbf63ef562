import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint:boundaries` (dependency-cruiser, .dependency-cruiser.cjs), run on two small trees written to
 * a temporary folder: one breaking the rules, one keeping them. They live outside the repository so that
 * neither Biome, tsc nor the real check ever reads them.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function checkTree(files: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'eventry-boundaries-'));
  folders.push(folder);
  await writeFile(path.join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
  await copyFile(path.join(repo, '.dependency-cruiser.cjs'), path.join(folder, '.dependency-cruiser.cjs'));
  // A symlink, as node_modules is in a git worktree: the rules must still see zod as node_modules/zod.
  await symlink(path.join(repo, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    await writeFile(path.join(folder, file), text);
  }

  const scripts = JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const [command, ...args] = (scripts['lint:boundaries'] ?? '').split(' ');
  expect(command).toBe('depcruise');
  return new Promise((resolve) => {
    execFile(path.join(repo, 'node_modules/.bin/depcruise'), args, { cwd: folder }, (error, stdout, stderr) => {
      resolve({ failed: error !== null, output: `${stdout}${stderr}` });
    });
  });
}

/** What both trees share: one server feature, one web feature, a plugin and a contract. */
const common: Record<string, string> = {
  'contracts/orders.ts': "import { z } from 'zod';\nexport const orderSchema = z.object({ id: z.string() });\n",
  'server/features/billing/repository.ts': 'export function listInvoices(): string[] {\n  return [];\n}\n',
  'server/plugins/billing.ts': 'export const billing = { listInvoices: (): string[] => [] };\n',
  'web/src/features/shop/api/get-prices.ts': 'export function getPrices(): number[] {\n  return [];\n}\n',
  'web/src/features/shop/components/price.tsx': 'export function Price() {\n  return null;\n}\n',
  'web/src/components/ui/button.tsx': 'export function Button() {\n  return null;\n}\n',
};

describe('the import boundary check', () => {
  it('fails on a cross-feature import and an import cycle, and names each', { timeout: 60_000 }, async () => {
    const { failed, output } = await checkTree({
      ...common,
      'server/features/orders/routes.ts':
        "import { listInvoices } from '../billing/repository';\nexport const orders = () => listInvoices();\n",
      // A cycle closed by a type-only import still counts.
      'server/plugins/clock.ts':
        "import { startTimer } from './timers';\nexport type Clock = { now(): number };\nexport const start = startTimer;\n",
      'server/plugins/timers.ts':
        "import type { Clock } from './clock';\nexport function startTimer(clock: Clock) {\n  return clock.now();\n}\n",
      'web/src/features/cart/routes/cart.tsx':
        "import { Price } from '../../shop/components/price';\nexport function Cart() {\n  return Price();\n}\n",
      'contracts/orders-view.ts':
        "import { orders } from '../server/features/orders/routes';\nexport const view = orders;\n",
    });

    expect(failed).toBe(true);
    expect(output).toContain(
      'error server-feature-to-feature: server/features/orders/routes.ts → server/features/billing/repository.ts',
    );
    expect(output).toMatch(
      /error no-cycle: server\/plugins\/(clock|timers)\.ts →\s+server\/plugins\/(timers|clock)\.ts/,
    );
    expect(output).toContain(
      'error web-feature-to-feature: web/src/features/cart/routes/cart.tsx → web/src/features/shop/components/price.tsx',
    );
    expect(output).toContain('error contracts-only-zod: contracts/orders-view.ts → server/features/orders/routes.ts');
    expect(output).toMatch(/x 4 dependency violations/);
  });

  it("passes a tree whose features meet through plugins and each other's api/ modules", {
    timeout: 60_000,
  }, async () => {
    const { failed, output } = await checkTree({
      ...common,
      'server/features/orders/routes.ts':
        "import type { orderSchema } from '../../../contracts/orders';\nimport { billing } from '../../plugins/billing';\n" +
        'export const orders = (): [string[], typeof orderSchema | undefined] => [billing.listInvoices(), undefined];\n',
      'web/src/features/cart/routes/cart.tsx':
        "import { Button } from '../../../components/ui/button';\nimport { getPrices } from '../../shop/api/get-prices';\n" +
        'export function Cart() {\n  return getPrices().length > 0 ? Button() : null;\n}\n',
    });

    expect(output).toContain('no dependency violations found');
    expect(failed).toBe(false);
  });
});
