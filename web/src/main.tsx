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

/** Starts fetching the current page's own chunks (listed by the server, server/web-html.ts) beside the app. */
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
// stylesheet, font and largest image get the network first. Then the app and the page's chunks load
// together and React takes over the page.
void afterFirstPaint(200)
  .then(() => {
    preloadPageChunks();
    return import('./app/boot');
  })
  .then(({ boot }) => boot(root));
