import { renderToStringAsync } from 'preact-render-to-string';
import { StrictMode } from 'react';
import { StaticRouter } from 'react-router';
import { i18nOf } from '../../../contracts/i18n/all';
import type { Lang } from '../../../contracts/i18n/languages';
import { type InitialData, seedQueries } from './initial-data';
import { AppProviders, createQueryClient } from './providers';
import { AppRoutes } from './router';

/**
 * Server entry (built by scripts/build.mjs into dist/web-ssr, used by server/web-app/react-render.ts): the HTML of a
 * public page as a visitor sees it first, from the same components, with the same data the page then
 * hydrates from (the JSON block). The first paint no longer waits for the JavaScript.
 */
export async function renderPage(url: string, data: InitialData, lang: Lang, signal?: AbortSignal): Promise<string> {
  const client = createQueryClient();
  seedQueries(client, data);
  try {
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
