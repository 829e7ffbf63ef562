import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { setupTestApp, type TestContext } from '../test/helpers';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Default description" />
    <title>Eventry — discover and book events</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body class="page">
    <div id="root"></div>
  </body>
</html>
`;

const MANIFEST = {
  'index.html': { file: 'assets/index-abc.js', isEntry: true },
  'src/app/boot.tsx': { file: 'assets/boot-abc.js', imports: ['_framework.js'] },
  '_framework.js': { file: 'assets/framework-abc.js' },
  'src/features/catalogue/routes/event-details.tsx': {
    file: 'assets/event-details-abc.js',
    imports: ['_framework.js', '_dates.js'],
  },
  '_dates.js': { file: 'assets/dates-abc.js' },
};

/**
 * A folder shaped like dist/web for the tests of server/web: index.html with its stylesheet, and Vite's manifest
 * with the app's start module and the event page's chunks. The caller removes it.
 */
export function createWebDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eventry-web-html-'));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, 'index.html'), TEMPLATE);
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'assets', 'index-abc.css'),
    '/*! licence */\n@layer x;body{color:red}.page{margin:0}.other{margin:2px}table{border:0}@media (width>=40rem){.page{margin:1rem}.other{padding:0}}',
  );
  return dir;
}

/**
 * A test app that serves the web app from such a folder (the redirects are the server's, before any HTML), set up
 * before the tests of the calling `describe` and removed after them. `prepare` may change the folder first.
 */
export function webTestApp(prepare?: (dir: string) => void): { dir: string; test: TestContext } {
  const ctx = { dir: '', test: undefined as unknown as TestContext };
  beforeAll(async () => {
    ctx.dir = createWebDir();
    prepare?.(ctx.dir);
    ctx.test = await setupTestApp({ webDir: ctx.dir });
  });
  afterAll(async () => {
    rmSync(ctx.dir, { recursive: true, force: true });
    await ctx.test.close();
  });
  return ctx;
}
