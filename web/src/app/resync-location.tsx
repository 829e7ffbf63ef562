import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * React Router's BrowserRouter reads the address when it first renders but listens for Back and Forward
 * only from its commit (a layout effect). Hydration runs as a transition and yields to the browser in
 * between, so a Back pressed meanwhile (after a reload, Back to an entry of the same document is a
 * same-document traversal) changed the address without the router hearing it, and the page stayed on the
 * previous view. Passive effects run after every layout effect, so the router listens by now: if the
 * address moved, tell it again with the event it missed.
 */
export function ResyncLocation(): null {
  const { pathname, search, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after the first commit; later moves reach the router's own listener
  useEffect(() => {
    const now = window.location;
    if (now.pathname !== pathname || now.search !== search || now.hash !== hash) {
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }
  }, []);
  return null;
}
