import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { criticalCss, htmlNames, type SplitStylesheet, splitStylesheet } from './critical-css';
import { deferEntry } from './entry-loader';

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
  /** index.html's stylesheets (assets/….css), split into rules. */
  stylesheets: Map<string, SplitStylesheet>;
}

/** The app's start module (a key of Vite's manifest), imported by the small entry after the first paint. */
const APP_MODULE = 'src/app/boot.tsx';

/** Where a page's part of a stylesheet goes in the template (web-html.ts writes it, criticalStyles()). */
const STYLE_SLOT = /<style data-critical="([^"]+)"><\/style>/g;

/**
 * index.html's own stylesheet: in each page, the rules its HTML can use (critical-css.ts) are written in, so the
 * first paint waits for no request after the HTML, and the HTML itself stays within the first round trip of a
 * slow connection. A disabled link to the whole file stays beside them. The browser does not fetch a disabled
 * stylesheet until web/src/main.tsx loads it (switched off until the app first changes the page); and Vite's preload helper takes it as
 * already on the page: a lazy chunk that imports the entry chunk (the toaster, every route) lists the entry's
 * stylesheet among its dependencies, and without the link the first of them fetched the file again.
 */
function inlineStylesheets(html: string, webDir: string, sheets: Map<string, SplitStylesheet>): string {
  return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"]+\.css)"\s*\/?>/g, (tag, file) => {
    try {
      const css = readFileSync(path.join(webDir, file), 'utf8');
      if (css.includes('</')) return tag;
      const disabled = `<link rel="stylesheet" href="/${file}" disabled />`;
      try {
        sheets.set(file, splitStylesheet(css));
      } catch {
        return `<style>${css}</style>\n    ${disabled}`; // Not a stylesheet it can split: written in whole.
      }
      return `<style data-critical="${file}"></style>\n    ${disabled}`;
    } catch {
      return tag;
    }
  });
}

/** The template's HTML with each stylesheet's rules that `page` (the finished HTML) uses written in. */
export function criticalStyles(template: Template, page: string): string {
  const names = htmlNames(page);
  return page.replace(STYLE_SLOT, (slot, file: string) => {
    const sheet = template.stylesheets.get(file);
    return sheet ? `<style>${criticalCss(sheet, names)}</style>` : slot;
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
    const stylesheets = new Map<string, SplitStylesheet>();
    const html = deferEntry(inlineStylesheets(readFileSync(indexPath, 'utf8'), webDir, stylesheets));
    let manifest: Manifest = {};
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    } catch {
      // No manifest (an older build): pages still work, without per-route preloads.
    }
    const referenced = new Set([...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1] ?? ''));
    template = { mtimeMs, html, manifest, referenced, stylesheets };
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
