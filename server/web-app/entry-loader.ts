import { createHash } from 'node:crypto';

/**
 * The small inline script that starts the app (index.html's entry module, web/src/main.tsx) once the page has
 * loaded and painted, instead of index.html's <script type="module" src>: a module script in the head is fetched
 * at once, beside the page's font and largest picture, and on a slow phone its request and the chunks after it
 * share the first second's bandwidth with them. Lighthouse's simulation counted it on the path to the first and the
 * largest paint (FCP 880–1,010 ms with it, 680–750 without; the floor page's 630–750).
 *
 * When: after the window's load event (the HTML, its pictures and fonts) and once the browser has reported the paint
 * that shows them: the largest paint of the page's first picture (`fetchpriority="high"`: the banner, the event's
 * picture, the list's first card), or the first contentful paint on a page without one. When everything is on the
 * device before the first paint (a fast connection, or Lighthouse's loopback), the load event comes before that
 * paint, and a script started on the next frame was fetched before the paint was presented: Lighthouse's simulation
 * then put the app's chunks on the path to the largest paint (LCP 1,208–1,347 ms instead of 750–930 in one load
 * of five or so; docs/performance-notes.md, 2026-11-29 night). Browsers without these entries start on the frame
 * after the load event. After 300 ms when no such paint is reported (a tab in the background draws nothing; a
 * larger text than the picture is the largest paint); at the latest 3 s after the HTML, so that a picture that
 * never finishes does not hold the app back. The entry's address is the script element's data-src. Written once,
 * in ES5, so that its hash (the CSP's script-src) is a constant.
 */
export const ENTRY_LOADER =
  '(function(src){var started=false;function start(){if(started)return;started=true;' +
  'var script=document.createElement("script");script.type="module";script.src=src;document.head.appendChild(script)}' +
  'addEventListener("load",function(){setTimeout(start,300);' +
  'var picture=document.querySelector("img[fetchpriority=high]");' +
  'var type=picture?"largest-contentful-paint":"paint";' +
  'var observer=window.PerformanceObserver;' +
  'if(!observer||!observer.supportedEntryTypes||observer.supportedEntryTypes.indexOf(type)===-1)' +
  '{requestAnimationFrame(function(){setTimeout(start)});return}' +
  'new observer(function(list){list.getEntries().forEach(function(entry){' +
  'if(picture?entry.element===picture:entry.name==="first-contentful-paint")setTimeout(start)})})' +
  '.observe({type:type,buffered:true})});' +
  'setTimeout(start,3000)})(document.currentScript.dataset.src)';

/** ENTRY_LOADER's hash as a CSP source ('sha256-…'): the one inline script the pages run. */
export const ENTRY_LOADER_CSP_SOURCE = `'sha256-${createHash('sha256').update(ENTRY_LOADER).digest('base64')}'`;

/** index.html with its entry module (Vite writes `<script type="module" crossorigin src>`) started by ENTRY_LOADER. */
export function deferEntry(html: string): string {
  return html.replace(
    /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/,
    (_tag, src: string) => `<script data-src="${src}">${ENTRY_LOADER}</script>`,
  );
}
