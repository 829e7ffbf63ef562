import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

/** sessionStorage: the address this tab last reloaded because a chunk would not load, and when. */
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
  let last: { href?: string; at?: number } = {};
  try {
    last = JSON.parse(sessionStorage.getItem(RELOADED_KEY) ?? '{}') as typeof last;
  } catch {
    // Unreadable or no storage: treat as never reloaded.
  }
  if (last.href === location.href && Date.now() - (last.at ?? 0) < RELOAD_GUARD_MS) return;
  try {
    sessionStorage.setItem(RELOADED_KEY, JSON.stringify({ href: location.href, at: Date.now() }));
  } catch {
    return; // Without storage there is no guard against a reload loop.
  }
  event.preventDefault();
  reloading = true;
  location.reload();
});

/** Resolves once the browser has painted (two animation frames), or after `fallbackMs` in a hidden tab. */
function afterFirstPaint(fallbackMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, fallbackMs);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
}

/** Starts fetching every chunk the page runs (listed by the server, server/web-app/template.ts), all at once. */
function preloadPageChunks(): void {
  const list = document.querySelector<HTMLMetaElement>('meta[name="page-chunks"]')?.content ?? '';
  for (const href of list.split(' ')) {
    if (!href.startsWith('/assets/')) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.appendChild(link);
  }
}

// The page (server-rendered for the public pages) paints before any JavaScript is fetched or run: the
// stylesheet, font and largest image get the network first. Then all the chunks load together. The
// libraries' chunk (React DOM, the router, the query cache: 'framework' in vite.config.ts) runs first, on
// its own; after a yield to the browser the app runs and React takes over the page. Two shorter tasks
// instead of one long one: a tap or a frame can come in between.
void afterFirstPaint(200)
  .then(() => {
    preloadPageChunks();
    return import('react-dom/client');
  })
  .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  .then(() => import('./app/boot'))
  .then(({ boot }) => boot(root));
