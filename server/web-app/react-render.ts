import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Lang } from '../../contracts/i18n/languages';

/** A render that takes longer is abandoned: the browser then renders the page itself. */
const RENDER_TIMEOUT_MS = 1_000;

type RenderPage = (url: string, data: Record<string, unknown>, lang: Lang, signal?: AbortSignal) => Promise<string>;

/**
 * The web app's own server-side renderer (dist/web-ssr/ssr.js beside dist/web, built from web/src/app/ssr.tsx):
 * a page's HTML from the same React components, with the data it then hydrates from. Undefined when it was not
 * built, failed or took too long: the browser then renders the page itself.
 */
export function reactRenderer(app: FastifyInstance, webDir: string) {
  const ssrPath = path.join(webDir, '..', 'web-ssr', 'ssr.js');
  let renderer: { mtimeMs: number; render: Promise<RenderPage | undefined> } | undefined;

  /** The renderer, if it was built (imported again when dist/ is rebuilt). */
  function load(): Promise<RenderPage | undefined> {
    if (!existsSync(ssrPath)) return Promise.resolve(undefined);
    const mtimeMs = statSync(ssrPath).mtimeMs;
    if (renderer?.mtimeMs !== mtimeMs) {
      const url = `${pathToFileURL(ssrPath).href}?v=${mtimeMs}`;
      const render = import(url).then(
        (module: { renderPage?: RenderPage }) => module.renderPage,
        (error: unknown) => {
          app.log.warn({ err: error }, 'server-side renderer not loaded');
          return undefined;
        },
      );
      renderer = { mtimeMs, render };
    }
    return renderer.render;
  }

  return async function renderReact(
    url: string,
    data: Record<string, unknown>,
    lang: Lang,
  ): Promise<string | undefined> {
    const render = await load();
    if (!render) return undefined;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), RENDER_TIMEOUT_MS);
    try {
      return await render(url, data, lang, abort.signal);
    } catch (error) {
      app.log.warn({ err: error, url }, 'page not rendered on the server');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}
