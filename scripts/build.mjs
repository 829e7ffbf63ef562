// Builds the web app (Vite) into dist/web and bundles the server (esbuild) into dist/server.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync as zopfliGzip } from '@gfx/zopfli';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const started = Date.now();

const vite = path.join(root, 'node_modules/vite/bin/vite.js');
execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
// The server-side renderer of the public pages (server/web-html.ts): dist/web-ssr/ssr.js.
execFileSync(process.execPath, [vite, 'build', '--ssr', 'src/app/ssr.tsx', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});

// Pre-compressed copies let the server send static files without compressing them per request. The gzip
// copies come from Zopfli: the same format every client reads, about 3% smaller than zlib's best.
async function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await precompress(file);
    else if (/\.(js|css|html|svg|json|txt|webmanifest)$/.test(entry.name) && statSync(file).size > 256) {
      // A copy is kept only where it is smaller than the file itself.
      const data = readFileSync(file);
      const gz = await zopfliGzip(data, { numiterations: 1 });
      if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
      const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      if (br.length < data.length) writeFileSync(`${file}.br`, br);
    }
  }
}
await precompress(path.join(root, 'dist/web'));

await build({
  entryPoints: [path.join(root, 'server/main.ts')],
  outfile: path.join(root, 'dist/server/main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

mkdirSync(path.join(root, 'dist'), { recursive: true });
writeFileSync(path.join(root, 'dist/.build-stamp'), new Date().toISOString());
console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
