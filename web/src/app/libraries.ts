/**
 * The libraries every page runs on. main.tsx imports this on its own, then yields to the browser before it
 * imports the app: evaluating React DOM and the router is one long piece of work, and the app's modules and
 * hydration are another; as separate tasks, a tap or a frame can come in between.
 */
export { QueryClient } from '@tanstack/react-query';
export { StrictMode } from 'react';
export { hydrateRoot } from 'react-dom/client';
export { BrowserRouter } from 'react-router';
