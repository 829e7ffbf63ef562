import { type ComponentType, createElement, use } from 'react';

/**
 * A module of this build, fetched the first time it is needed. A tab opened before a new version was deployed
 * asks for chunks that are gone; main.tsx then reloads the page (vite:preloadError), and Vite's loader answers
 * the import with no module instead of an error. What waits for the module then keeps waiting, behind its
 * Suspense fallback, until the new page replaces this one: no error page flashes before the reload.
 */
export function chunk<M>(load: () => Promise<M>): Promise<M> {
  return load().then((module) => (module === undefined ? new Promise<M>(() => {}) : module));
}

/** A promise that says, once settled, how it settled, as `use()` reads it: a settled one is read at once. */
type Settling<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** A lazily loaded component (see lazyChunk), and how to load it before it first renders. */
export type LazyChunk<P> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A lazily loaded component: `pick` names it in its module (see chunk). It suspends (a Suspense boundary above
 * shows its fallback) until the module is there, unless `preload()` has already brought it: then it renders at
 * once. boot.tsx preloads the parts the server drew before hydrating the page, because a part that suspends
 * while the page is hydrated is thrown away and drawn again (docs/decisions/026-preact-runs-the-react-code.md).
 */
export function lazyChunk<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): LazyChunk<P> {
  let component: Settling<ComponentType<P>> | undefined;
  function preload(): Settling<ComponentType<P>> {
    if (component) return component;
    const settling: Settling<ComponentType<P>> = chunk(load).then(pick);
    settling.then(
      (value) => Object.assign(settling, { status: 'fulfilled', value }),
      (reason: unknown) => Object.assign(settling, { status: 'rejected', reason }),
    );
    component = settling;
    return settling;
  }
  // biome-ignore lint/correctness/noComponentHookFactories: made once per lazily loaded component, at module level
  function Lazy(props: P) {
    return createElement(use(preload() as Promise<ComponentType<P>>), props);
  }
  return Object.assign(Lazy, { preload });
}
