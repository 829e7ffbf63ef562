import { options } from 'preact';
import { isResumingHydration } from '../lib/hydrate-later';

/**
 * The whole stylesheet, turned on only when the app first changes the page.
 *
 * A server-drawn page carries the rules its HTML uses (server/web-app/critical-css.ts); the whole stylesheet is a
 * disabled link beside them. web/src/main.tsx loads it switched off (`media="not all"`): fetched and parsed, it
 * styles nothing. Turning it on restyles every element of the page, which was the longest task of a first load
 * after the first paint on a slow phone (docs/performance-notes.md, 2026-11-29 afternoon), and the page as the
 * server drew it does not need it: its own rules give it the same styles (e2e/first-paint.spec.ts). What the app
 * draws later (menus, dialogs, toasts, other pages) does. So it is turned on just before the app first updates
 * the page: every update after the first render is scheduled through Preact's `options.debounceRendering`, and
 * the stylesheet is on before the update changes the page and before its layout effects measure anything. The
 * first update usually comes with the visitor's first tap or key (the toaster mounts then, app/providers.tsx).
 */

/** The links main.tsx loaded switched off. */
const OFF = 'link[rel="stylesheet"][media="not all"]';

/** Turns the whole stylesheet on (each link main.tsx loaded switched off); nothing to do once it is. */
export function turnOnWholeStylesheet(): void {
  for (const link of document.querySelectorAll<HTMLLinkElement>(OFF)) link.removeAttribute('media');
}

/**
 * Runs `hydrate` (the app adopting the page the server drew in `root`) with the whole stylesheet off, and turns it
 * on before the app's first update after that. Should hydrating itself have made an element or changed a class
 * (a part drawn differently in the browser), it is turned on at once. The parts of the page hydrated a moment
 * later (lib/hydrate-later.tsx) are updates that only adopt the server's HTML: they leave it off, unless they too
 * draw something.
 */
export function hydrateWithThePageRules(root: HTMLElement, hydrate: () => void): void {
  const schedule = options.debounceRendering ?? queueMicrotask;
  options.debounceRendering = (render) => {
    if (isResumingHydration()) {
      schedule(() => {
        if (drawnWhile(root, render)) turnOnWholeStylesheet();
      });
      return;
    }
    options.debounceRendering = schedule === queueMicrotask ? undefined : schedule;
    turnOnWholeStylesheet();
    schedule(render);
  };
  if (drawnWhile(root, hydrate)) turnOnWholeStylesheet();
}

/** Whether `run` made an element in `root` or changed a class there. */
function drawnWhile(root: HTMLElement, run: () => void): boolean {
  const watch = new MutationObserver(() => undefined);
  watch.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  run();
  const records = watch.takeRecords();
  watch.disconnect();
  return records.some(
    (record) =>
      record.type === 'attributes' || Array.from(record.addedNodes).some((node) => node.nodeType === Node.ELEMENT_NODE),
  );
}
