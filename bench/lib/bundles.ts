import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { rawGet } from './processes';

const run = promisify(execFile);

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** The same flags as playwright.config.ts: no GPU, no QUIC, no background traffic to the internet. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface AssetSize {
  url: string;
  kind: 'js' | 'css';
  rawBytes: number;
  gzipBytes: number;
  brBytes: number;
  status: number;
  /** What the server sent to a gzip-only client: 'gzip' or 'identity' ('inline': written into the page). */
  gzipEncoding: string;
  cacheControl: string | undefined;
}

export interface PageLoad {
  path: string;
  status: number | undefined;
  jsGzipBytes: number;
  cssGzipBytes: number;
  jsBrBytes: number;
  cssBrBytes: number;
  jsFiles: number;
  cssFiles: number;
  requests: number;
  otherTransferBytes: number;
  loadMs: number;
  assets: AssetSize[];
  /** JS/CSS the page loaded that no longer answer 200 (dist/ rebuilt meanwhile?). */
  missingAssets: string[];
  consoleErrors: string[];
}

async function measureAsset(url: string, kind: 'js' | 'css'): Promise<AssetSize> {
  const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
  const br = await rawGet(url, { 'accept-encoding': 'br' });
  const plain = await rawGet(url, { 'accept-encoding': 'identity' });
  const gzipEncoding = String(gz.headers['content-encoding'] ?? 'identity');
  return {
    url,
    kind,
    status: gz.status,
    rawBytes: plain.body.length,
    // A small file the server sends uncompressed costs its raw size on the wire.
    gzipBytes: gz.body.length,
    brBytes: br.body.length,
    gzipEncoding,
    cacheControl: gz.headers['cache-control'],
  };
}

/**
 * Loads each page in headless Chromium until the network is idle, then re-requests every JS and CSS file
 * it loaded with `accept-encoding: gzip` (and br) to count the compressed bytes an initial load costs.
 */
export async function measurePages(
  baseUrl: string,
  paths: string[],
  timeoutMs: number,
  {
    lang,
    cookies = [],
  }: { lang?: 'en' | 'ar' /** 'name=value' pairs, e.g. a signed-in admin's session. */; cookies?: string[] } = {},
): Promise<PageLoad[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, timeout: 30_000 });
  try {
    const results: PageLoad[] = [];
    for (const pagePath of paths) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      // The page in a language of its own (the language switch's cookie); without it, the browser's English.
      if (lang) await context.addCookies([{ name: 'lang', value: lang, url: baseUrl }]);
      for (const cookie of cookies) {
        const at = cookie.indexOf('=');
        await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: baseUrl }]);
      }
      const page = await context.newPage();
      const seen = new Map<string, 'js' | 'css'>();
      const consoleErrors: string[] = [];
      let requests = 0;
      let otherTransferBytes = 0;
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text().slice(0, 200));
      });
      page.on('requestfinished', async (request) => {
        requests += 1;
        const url = request.url();
        if (!url.startsWith(baseUrl)) return;
        const type = request.resourceType();
        const pathname = new URL(url).pathname;
        if (type === 'script' || pathname.endsWith('.js')) seen.set(url, 'js');
        else if (type === 'stylesheet' || pathname.endsWith('.css')) seen.set(url, 'css');
        else {
          const sizes = await request.sizes().catch(() => undefined);
          otherTransferBytes += sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0;
        }
      });
      const started = performance.now();
      const response = await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle', timeout: timeoutMs });
      const loadMs = performance.now() - started;
      // Stylesheets written into the page (server/web-app/template.ts) count as CSS: their compressed size alone.
      const inlineCss = await page.$$eval('style', (elements) => elements.map((e) => e.textContent ?? ''));
      await context.close();
      const assets = await Promise.all([...seen].map(([url, kind]) => measureAsset(url, kind)));
      for (const css of inlineCss.filter((text) => text.length > 0)) {
        const body = Buffer.from(css);
        assets.push({
          url: `${baseUrl}${pagePath} <style>`,
          kind: 'css',
          status: 200,
          rawBytes: body.length,
          gzipBytes: gzipSync(body).length,
          brBytes: brotliCompressSync(body).length,
          gzipEncoding: 'inline',
          cacheControl: undefined,
        });
      }
      const sum = (kind: 'js' | 'css', key: 'gzipBytes' | 'brBytes') =>
        assets.filter((a) => a.kind === kind && a.status === 200).reduce((total, a) => total + a[key], 0);
      results.push({
        path: pagePath,
        status: response?.status(),
        jsGzipBytes: sum('js', 'gzipBytes'),
        cssGzipBytes: sum('css', 'gzipBytes'),
        jsBrBytes: sum('js', 'brBytes'),
        cssBrBytes: sum('css', 'brBytes'),
        jsFiles: assets.filter((a) => a.kind === 'js').length,
        cssFiles: assets.filter((a) => a.kind === 'css').length,
        requests,
        otherTransferBytes,
        loadMs: Math.round(loadMs),
        assets: assets.map((a) => ({ ...a, url: a.url.slice(baseUrl.length) })),
        missingAssets: assets.filter((a) => a.status !== 200).map((a) => `${a.url.slice(baseUrl.length)} ${a.status}`),
        consoleErrors,
      });
    }
    return results;
  } finally {
    await browser.close();
  }
}

export interface HelloWorld {
  jsGzipBytes: number;
  jsRawBytes: number;
  files: Array<{ file: string; rawBytes: number; gzipBytes: number }>;
  buildMs: number;
}

/** Builds a React 19 + react-dom hello world with Vite (same plugin as the app) and gzips its JS. */
export async function buildHelloWorld(root: string, timeoutMs: number): Promise<HelloWorld> {
  // Inside the project so that node_modules (react, react-dom, vite, the plugin) resolve.
  const dir = path.join(root, '.tmp', `bench-hello-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Hello</title></head>' +
      '<body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body></html>\n',
  );
  writeFileSync(
    path.join(dir, 'src', 'main.jsx'),
    "import { StrictMode } from 'react';\nimport { createRoot } from 'react-dom/client';\n\n" +
      "createRoot(document.getElementById('root')).render(<StrictMode><h1>Hello, world</h1></StrictMode>);\n",
  );
  writeFileSync(
    path.join(dir, 'vite.config.mjs'),
    "import react from '@vitejs/plugin-react';\nimport { defineConfig } from 'vite';\n\n" +
      `export default defineConfig({ root: ${JSON.stringify(dir)}, plugins: [react()], logLevel: 'warn',\n` +
      "  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' } });\n",
  );
  const started = performance.now();
  try {
    await run(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', path.join(dir, 'vite.config.mjs')],
      { cwd: dir, timeout: timeoutMs, env: { ...process.env, NODE_ENV: 'production' } },
    );
    const buildMs = performance.now() - started;
    const assetsDir = path.join(dir, 'dist', 'assets');
    const files = readdirSync(assetsDir)
      .filter((f) => f.endsWith('.js'))
      .map((file) => {
        const data = readFileSync(path.join(assetsDir, file));
        return { file, rawBytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length };
      });
    return {
      jsGzipBytes: files.reduce((t, f) => t + f.gzipBytes, 0),
      jsRawBytes: files.reduce((t, f) => t + f.rawBytes, 0),
      files,
      buildMs: Math.round(buildMs),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
