import { renderToStringAsync } from 'preact-render-to-string';
import { StrictMode } from 'react';
import { StaticRouter } from 'react-router';
import { i18nOf } from '../../../contracts/i18n/all';
import type { Lang } from '../../../contracts/i18n/languages';
import { type InitialData, seedQueries } from './initial-data';
import { preloadLayout } from './layout/root-layout';
import { AppProviders, createQueryClient } from './providers';
import { AppRoutes, preloadPage } from './router';

/**
 * Server entry (built by scripts/build.mjs into dist/web-ssr, used by server/web-app/react-render.ts): the HTML of a
 * public page as a visitor sees it first, from the same components, with the same data the page then
 * hydrates from (the JSON block). The first paint no longer waits for the JavaScript.
 */
export async function renderPage(url: string, data: InitialData, lang: Lang, signal?: AbortSignal): Promise<string> {
  const client = createQueryClient();
  seedQueries(client, data);
  try {
    // The same parts loaded first as in the browser before it hydrates (boot.tsx): a part that suspends while it is
    // rendered here shifts the useId counters of what renders after it, so the server's ids would differ from the
    // browser's (and a page's first render after a start from its later ones).
    const { pathname } = new URL(url, 'http://localhost');
    await Promise.all([preloadPage(pathname), preloadLayout(pathname)]);
    const render = renderToStringAsync(
      <StrictMode>
        <AppProviders client={client} i18n={i18nOf(lang)}>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </AppProviders>
      </StrictMode>,
    );
    return await (signal ? Promise.race([render, aborted(signal)]) : render);
  } finally {
    client.clear();
  }
}

/** Rejects when the signal aborts (the renderer itself takes none): the caller stops waiting for the render. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
