import '@fontsource-variable/inter/index.css';
import './index.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { seedInitialData } from './app/initial-data';
import { AppProviders, queryClient } from './app/providers';
import { AppRoutes } from './app/router';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

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
