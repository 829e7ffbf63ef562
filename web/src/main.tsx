import './index.css';

/** index.html's #root, where the app is drawn. */
const root = document.getElementById('root') as HTMLElement;

/** sessionStorage: when and which address this tab last reloaded because a chunk would not load. */
const RELOADED_KEY = 'eventry.chunk-reload';
/** A second failure on the same address within this time is a real outage: no reload loop. */
const RELOAD_GUARD_MS = 30_000;

// A page opened before a new version was deployed asks for chunks that are gone (their names carry the old
// build's hashes): Vite then fires vite:preloadError. Load the page again, once, to get the new version's
// chunks. A failure again right after that is left to the app's error handling. The import answered
// meanwhile (with no module: the event is prevented) keeps its caller waiting, see lib/chunk.ts.
let reloading = false;
window.addEventListener('vite:preloadError', (event) => {
  // Several chunks may fail at once (a page and the footer): the reload under way answers for all of them.
  if (reloading) {
    event.preventDefault();
    return;
  }
  // The address and the time of the last reload, as 'time address'.
  const now = Date.now();
  try {
    const last = sessionStorage.getItem(RELOADED_KEY) ?? '';
    const space = last.indexOf(' ');
    if (last.slice(space + 1) === location.href && now - Number(last.slice(0, space)) < RELOAD_GUARD_MS) return;
    sessionStorage.setItem(RELOADED_KEY, `${now} ${location.href}`);
  } catch {
    return; // Without storage there is no guard against a reload loop.
  }
  event.preventDefault();
  reloading = true;
  location.reload();
});

/** The addresses a meta element of the page lists (server/web-app/web-html.ts). */
function listed(name: string): string[] {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.split(' ') ?? [];
}

/** Starts fetching every chunk the page runs (listed by the server, server/web-app/template.ts), all at once. */
function preloadPageChunks(): void {
  for (const href of listed('page-chunks')) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

/**
 * Loads the whole stylesheet, which the HTML carries as a disabled link beside the rules its first paint uses
 * (server/web-app/critical-css.ts), switched off: fetched and parsed, styling nothing until the app first changes
 * the page (app/whole-stylesheet.ts). Resolves when it has loaded (or failed: the page keeps its own rules).
 */
function loadStylesheets(): Promise<unknown> {
  return Promise.all(
    Array.from(
      document.querySelectorAll<HTMLLinkElement>('link[disabled]'),
      (link) =>
        new Promise((resolve) => {
          link.onload = link.onerror = resolve;
          link.media = 'not all';
          link.disabled = false;
        }),
    ),
  );
}

/**
 * The app's texts, from the addresses the server listed (the HTML is already written in its language; only the
 * app needs them), for lib/i18n.tsx. Each is asked for a second time if the first answer does not come (a dropped
 * connection on a phone should not cost the texts).
 */
function loadPageMessages(): Promise<void> {
  const get = (url: string) => fetch(url).then((response) => (response.ok ? response.json() : {}));
  return Promise.all(
    listed('messages').map((url) =>
      get(url)
        .catch(() => get(url))
        .catch(() => ({})),
    ),
  ).then((bundles) => {
    globalThis.eventryMessages = Object.assign({}, ...bundles);
  });
}

// The page (server-rendered for the public pages) paints before any JavaScript, stylesheet or text beyond the
// HTML is fetched or run: its own rules are in the HTML, and this module is started by a small inline script
// once the page, its font and its largest picture have loaded and painted (server/web-app/entry-loader.ts). Then
// the whole stylesheet, the texts and all the chunks load together. The libraries' chunk (Preact's React-compatible core, the
// router, the query cache: 'framework' in vite.config.ts) runs first, on its own; after a yield to the browser the
// app runs and takes over the page. Two shorter tasks instead of one long one: a tap or a frame can come in
// between.
const ready = Promise.all([loadStylesheets(), loadPageMessages()]);
preloadPageChunks();
void Promise.all([ready, import('react-dom/client')])
  .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  .then(() => import('./app/boot'))
  .then(({ boot }) => boot(root));
