import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { hydrateTheServersPage } from '../lib/hydrate-later';
import { currentI18n } from '../lib/i18n';
import { runEffectsInTheCommittingTask } from './effect-timing';
import { seedInitialData } from './initial-data';
import { preloadLayout } from './layout/root-layout';
import { AppProviders, queryClient } from './providers';
import { AppRoutes, preloadPage } from './router';
import { forgetEndedSessions } from './session-end';
import { hydrateWithThePageRules, turnOnWholeStylesheet } from './whole-stylesheet';

/** Starts the app: hydrates the page the server rendered, or renders it here. */
export async function boot(root: HTMLElement): Promise<void> {
  seedInitialData(queryClient);
  forgetEndedSessions(queryClient);
  const app = (
    <StrictMode>
      <AppProviders i18n={currentI18n()}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>
  );
  // Public pages come rendered from the server (server/web-app/web-html.ts): adopt that HTML instead of redrawing it.
  // The app runs on Preact's React-compatible core (docs/decisions/026-preact-runs-the-react-code.md), which hydrates
  // in one go (its startTransition runs the work at once): the whole library is a fraction of React DOM's cost.
  if (root.firstChild) {
    // The lazily loaded parts the server drew (the page, its guard, the footer) are loaded first:
    // one that suspended while hydrating would be thrown away and drawn again. Their chunks are already on their
    // way (main.tsx preloadPageChunks). One that fails to load suspends and fails as it would have anyway.
    const { pathname } = window.location;
    await Promise.all([preloadPage(pathname), preloadLayout(pathname)]).catch(() => undefined);
    // The whole stylesheet stays off while the page is as the server drew it (whole-stylesheet.ts).
    // Parts of it (lib/hydrate-later.tsx) are adopted a moment later, each in a task of its own.
    hydrateWithThePageRules(root, () => hydrateTheServersPage(() => hydrateRoot(root, app)));
  } else {
    turnOnWholeStylesheet();
    createRoot(root).render(app);
  }
  runEffectsInTheCommittingTask();
}
