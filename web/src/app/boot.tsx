import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { currentI18n } from '../lib/i18n';
import { seedInitialData } from './initial-data';
import { AppProviders, queryClient } from './providers';
import { AppRoutes } from './router';
import { forgetEndedSessions } from './session-end';

/** Starts the app: hydrates the page the server rendered, or renders it here. */
export function boot(root: HTMLElement): void {
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
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the main
  // thread for the whole page (the page is already painted and readable meanwhile; a click on a part not
  // yet hydrated hydrates that part first).
  if (root.firstChild) {
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    createRoot(root).render(app);
  }
}
