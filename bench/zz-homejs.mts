import { measurePages } from './lib/bundles';
const pages = await measurePages(process.argv[2] ?? 'http://127.0.0.1:3950', ['/'], 30_000);
for (const p of pages) for (const a of p.assets) console.log(a.kind, a.gzipBytes, a.url.replace(/^.*\/assets\//, ''));
