import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * dist/web/index.html, the page every address of the web app starts from, and Vite's manifest of the chunks
 * (dist/web/.vite/manifest.json, keyed by source module: contracts/pages.ts names each page's).
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface Template {
  mtimeMs: number;
  html: string;
  manifest: Manifest;
  /** Files index.html already loads or preloads. */
  referenced: Set<string>;
}

/** The app's start module (a key of Vite's manifest), imported by the small entry after the first paint. */
const APP_MODULE = 'src/app/boot.tsx';

/**
 * index.html's own stylesheet written into the page (about 9 KB compressed): the first paint then waits for
 * no request after the HTML, one round trip sooner on a slow mobile connection. A disabled link to the
 * file stays beside it. The browser never fetches a disabled stylesheet, and Vite's preload helper takes
 * it as already on the page: a lazy chunk that imports the entry chunk (the toaster, every route) lists
 * the entry's stylesheet among its dependencies, and without the link the first of them fetched the file
 * again and restyled the whole page.
 */
function inlineStylesheets(html: string, webDir: string): string {
  return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"]+\.css)"\s*\/?>/g, (tag, file) => {
    try {
      const css = readFileSync(path.join(webDir, file), 'utf8');
      return css.includes('</') ? tag : `<style>${css}</style>\n    <link rel="stylesheet" href="/${file}" disabled />`;
    } catch {
      return tag;
    }
  });
}

/** The template of `webDir`, read again when dist/ is rebuilt under a running server (development, tests). */
export function templateLoader(webDir: string): () => Template {
  const indexPath = path.join(webDir, 'index.html');
  const manifestPath = path.join(webDir, '.vite', 'manifest.json');
  let template: Template | undefined;
  return () => {
    const mtimeMs = statSync(indexPath).mtimeMs;
    if (template?.mtimeMs === mtimeMs) return template;
    const html = inlineStylesheets(readFileSync(indexPath, 'utf8'), webDir);
    let manifest: Manifest = {};
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    } catch {
      // No manifest (an older build): pages still work, without per-route preloads.
    }
    const referenced = new Set([...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1] ?? ''));
    template = { mtimeMs, html, manifest, referenced };
    return template;
  };
}

/**
 * What the page runs beyond index.html's own entry: the app's start module and its imports, then the page's
 * module (`pageModule`, its key in Vite's manifest) and its imports. web/src/main.tsx asks for all of them at
 * once after the first paint; it then evaluates the libraries and the app in separate tasks, and neither step
 * waits on the network.
 */
export function pageChunks(template: Template, ...pageModules: Array<string | undefined>): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = template.manifest[name];
    if (!chunk || seen.has(name)) return;
    seen.add(name);
    if (!template.referenced.has(chunk.file)) files.push(chunk.file);
    for (const child of chunk.imports ?? []) visit(child);
  };
  visit(APP_MODULE);
  for (const module of pageModules) if (module) visit(module);
  return files;
}
