import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

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

/** Starts fetching every chunk the page runs (listed by the server, server/web-html.ts), all at once. */
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
