import { type ComponentType, lazy } from 'react';

/**
 * A module of this build, fetched the first time it is needed. A tab opened before a new version was deployed
 * asks for chunks that are gone; main.tsx then reloads the page (vite:preloadError), and Vite's loader answers
 * the import with no module instead of an error. What waits for the module then keeps waiting, behind its
 * Suspense fallback, until the new page replaces this one: no error page flashes before the reload.
 */
export function chunk<M>(load: () => Promise<M>): Promise<M> {
  return load().then((module) => (module === undefined ? new Promise<M>(() => {}) : module));
}

/** A lazily loaded component: `pick` names it in its module (see chunk). */
export function lazyChunk<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  return lazy(async () => ({ default: pick(await chunk(load)) }));
}
