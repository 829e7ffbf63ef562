import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
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
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <AppProviders client={client} i18n={i18nOf(lang)}>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </AppProviders>
      </StrictMode>,
      // Every Suspense boundary written in place: React otherwise moves one that ends past ~12 KB of HTML
      // to the end of the page, revealed by an inline script that our CSP (script-src 'self') refuses.
      { signal, progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    client.clear();
  }
}
