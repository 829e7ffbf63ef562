import { createHash } from 'node:crypto';

/**
 * The small inline script that starts the app (index.html's entry module, web/src/main.tsx) once the page has
 * loaded and painted, instead of index.html's <script type="module" src>: a module script in the head is fetched
 * at once, beside the page's font and largest picture, and on a slow phone its request and the chunks after it
 * share the first second's bandwidth with them. Lighthouse's simulation counted it on the path to the first and the
 * largest paint (FCP 880–1,010 ms with it, 680–750 without; the floor page's 630–750).
 *
 * When: after the window's load event (the HTML, its pictures and fonts) and the frame that follows it; after 200 ms
 * when no frame comes (a tab opened in the background draws none); at the latest 3 s after the HTML, so that a
 * picture that never finishes does not hold the app back. The entry's address is the script element's data-src.
 * Written once, in ES5, so that its hash (the CSP's script-src) is a constant.
 */
export const ENTRY_LOADER =
  '(function(src){var started=false;function start(){if(started)return;started=true;' +
  'var script=document.createElement("script");script.type="module";script.src=src;document.head.appendChild(script)}' +
  'addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(start)});setTimeout(start,200)});' +
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
