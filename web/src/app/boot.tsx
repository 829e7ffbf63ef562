import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { seedInitialData } from './initial-data';
import { AppProviders, queryClient } from './providers';
import { AppRoutes } from './router';

/** Starts the app: hydrates the page the server rendered, or renders it here. */
export function boot(root: HTMLElement): void {
  seedInitialData(queryClient);
  const app = (
    <StrictMode>
      <AppProviders>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>
  );
  // Public pages come rendered from the server (server/web-html.ts): adopt that HTML instead of redrawing it.
  if (root.firstChild) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
