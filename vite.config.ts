import { readFileSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, runnerImport } from 'vite';

/** Shared by the public pages (home, events list, event detail); see the 'shell' chunk below. */
const SHELL_MODULES = new RegExp(
  [
    'web/src/components/ui/(button|card|cn|page|skeleton|reveal|spinner|time)\\.tsx?$',
    // The header's and the footer's brand: on every page, and alone it would be a request of its own.
    'web/src/app/layout/brand\\.tsx$',
    'web/src/lib/(api-client|chunk|i18n)\\.tsx?$',
    'web/src/features/accounts/api/get-me\\.ts$',
    'web/src/features/catalogue/(api/use-live-events|components/(event-card|icons|scroll-to-top-button)|hooks/use-debounced-value)\\.tsx?$',
    'contracts/(constants|category-name|formats|i18n/i18n)\\.ts$',
  ]
    .map((pattern) => `(${pattern})`)
    .join('|'),
);

const PAGE_ROUTES_ID = 'virtual:page-routes';
const ADMIN_PAGE_ROUTES_ID = 'virtual:admin-page-routes';
const PAGE_MANIFEST = path.join(import.meta.dirname, 'contracts', 'pages.ts');

/**
 * `virtual:page-routes` (web/src/app/router.tsx): the pages of the route manifest (contracts/pages.ts) as the
 * router needs them, written at build time: each page's pattern, its guard and a lazy import of its module,
 * which Vite resolves to the page's own chunk. Built here rather than read at run time so that the first load
 * carries neither the modules' paths nor the pages' titles (and the message modules those come from):
 * docs/decisions/016-one-route-manifest.md. `virtual:admin-page-routes` (web/src/app/admin-routes.tsx) holds the
 * admin area's pages, their patterns relative to /admin, in the admin area's own chunk.
 */
function pageRoutes(): Plugin {
  const adminTable: Record<string, boolean> = { [`\0${PAGE_ROUTES_ID}`]: false, [`\0${ADMIN_PAGE_ROUTES_ID}`]: true };
  return {
    name: 'eventry:page-routes',
    resolveId: (source) => (source === PAGE_ROUTES_ID || source === ADMIN_PAGE_ROUTES_ID ? `\0${source}` : undefined),
    async load(id) {
      const admin = adminTable[id];
      if (admin === undefined) return undefined;
      // Read through Vite rather than imported by this file, whose own loader wants file extensions on imports.
      const { module, dependencies } = await runnerImport<typeof import('./contracts/pages')>(PAGE_MANIFEST);
      for (const file of [PAGE_MANIFEST, ...dependencies]) this.addWatchFile(file);
      const pages = Object.values(module.PAGES).filter((page) => module.isAdminAreaPath(page.path) === admin);
      const routes = pages.map((page) => {
        // A page's module exports one component, named after its file: routes/event-details.tsx, EventDetailsRoute.
        const file = path.basename(page.module, '.tsx');
        const component = `${file.replace(/(?:^|-)([a-z])/g, (_, letter: string) => letter.toUpperCase())}Route`;
        const source = readFileSync(path.join(import.meta.dirname, 'web', page.module), 'utf8');
        if (!new RegExp(`^export (?:function|const) ${component}\\b`, 'm').test(source)) {
          this.error(`${page.module} (the page at ${page.path}) must export ${component}`);
        }
        const blank = page.blankWhilePending ? ', true' : '';
        const pattern = admin ? page.path.slice(module.ADMIN_AREA.length).replace(/^\//, '') : page.path;
        return `  [${JSON.stringify(pattern)}, ${JSON.stringify(page.guard)}, () => import(${JSON.stringify(`/${page.module}`)}).then((m) => m.${component})${blank}],`;
      });
      return `export const pageRoutes = [\n${routes.join('\n')}\n];\n`;
    },
  };
}

/** Our stand-ins for parts of libraries (web/src/lib/vendor/). */
const vendor = (file: string) => path.join(import.meta.dirname, 'web/src/lib/vendor', file);

/**
 * A resolveId hook that gives the library module matching `importer` our stand-in `to` when it imports `source`
 * (each plugin below says why); every other import resolves as usual.
 */
function standIn(source: string, importer: RegExp, to: string): NonNullable<Plugin['resolveId']> {
  return (imported: string, from: string | undefined) =>
    imported === source && from !== undefined && importer.test(from) ? to : undefined;
}

/**
 * TanStack Query's query cache imports the paging code of infinite queries for the queries that use it; the app
 * has none, so the browser's build gets a stand-in that fails loudly if one is ever created
 * (web/src/lib/vendor/no-infinite-queries.ts).
 */
function noInfiniteQueries(): Plugin {
  return {
    name: 'eventry:no-infinite-queries',
    enforce: 'pre',
    resolveId: standIn(
      './infiniteQueryBehavior.js',
      /@tanstack[\\/]query-core[\\/].*[\\/]query\.js$/,
      vendor('no-infinite-queries.ts'),
    ),
  };
}

/**
 * TanStack Query's mutation cache, built by every query client, imports the class of a mutation, which only the
 * pages that run one need (`useMutation` is in their chunk: see the 'framework' group below). The cache gets a
 * stand-in (web/src/lib/vendor/late-mutation.ts) that builds with the real class, which TanStack's
 * `MutationObserver` (behind every `useMutation`) hands over as its module loads.
 */
function lateMutations(): Plugin {
  const stand = vendor('late-mutation.ts');
  const core = /@tanstack[\\/]query-core[\\/].*[\\/]/;
  return {
    name: 'eventry:late-mutations',
    enforce: 'pre',
    resolveId: standIn('./mutation.js', new RegExp(`${core.source}mutationCache\\.js$`), stand),
    transform(code, id) {
      if (!new RegExp(`${core.source}mutationObserver\\.js$`).test(id)) return undefined;
      if (!code.includes('import { getDefaultState } from "./mutation.js";')) {
        this.error("TanStack's mutationObserver.js changed: see vite.config.ts lateMutations");
      }
      return {
        code: `${code}\nimport { Mutation as __RealMutation } from "./mutation.js";\nimport { provideMutation as __provideMutation } from ${JSON.stringify(stand)};\n__provideMutation(__RealMutation);\n`,
        map: null,
      };
    },
  };
}

/**
 * Vite's loader of lazily imported chunks (`__vitePreload`, in the entry every page loads) in the few lines this app
 * needs (~0.5 KB gzip less): it fetches the chunks an import lists (modulepreload) alongside the import, and reports
 * a failure as `vite:preloadError` (web/src/main.tsx reloads the page for a chunk gone with a new version). Vite's
 * own also loads lazily imported stylesheets, waiting for them, and adds a CSP nonce: the app has one stylesheet,
 * on every page from the start (web/src/main.tsx turns it on), and no nonces. Its JavaScript it never waited for,
 * as this one does not.
 */
function smallPreloadHelper(): Plugin {
  const helperId = '\0vite/preload-helper.js';
  return {
    name: 'eventry:small-preload-helper',
    enforce: 'pre',
    load(id) {
      if (id !== helperId) return undefined;
      return `const seen = {};
export const __vitePreload = (load, deps) => {
  for (const dep of deps || []) {
    if (dep in seen || dep.endsWith('.css')) continue;
    seen[dep] = true;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = ${JSON.stringify('/')} + dep;
    document.head.appendChild(link);
  }
  return load().catch((error) => {
    const event = new Event('vite:preloadError', { cancelable: true });
    event.payload = error;
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
  });
};
`;
    },
  };
}

/**
 * V8 compiles a function the first time it is called, on the main thread, unless the file asks for it to be compiled
 * eagerly: `//# allFunctionsCalledOnLoad` (Chromium's per-file compile hints) has every function of the file
 * compiled on the thread that streams it in. The libraries' chunk, which every page runs at start-up, carries it:
 * most of its functions run as the page hydrates, so the work only moves off the main thread. (On the app's boot
 * and shell chunks too it cost 40 B gzip more, which the home page's budget did not have.) At Lighthouse's 4×
 * slowdown it took the framework chunk's evaluation from ~32 to ~15 ms and the home page's blocking time from 98
 * to 41 ms (median of five; docs/performance-notes.md, 2026-11-28 late).
 */
function compileHintsOnFirstLoad(): Plugin {
  const FIRST_LOAD = new Set(['framework']);
  return {
    name: 'eventry:compile-hints',
    // After minification, which drops comments. The file's name keeps the hash of its code without the line.
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && FIRST_LOAD.has(file.name))
          file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
      }
    },
  };
}

/**
 * React Router's build leaves what the app does not use in every first load (~3 KB gzip of 14): its components
 * are made by `React.forwardRef(...)` and its contexts by `React.createContext(...)` without the annotation that
 * tells the bundler such a call has no side effect, and each gets a `displayName` (for React's developer tools)
 * in a statement of its own, so `<Form>`, `useSubmit` and the rest stay even though nothing renders them. And
 * every `<Link>` carries the prefetching of framework mode (a hook of five hooks and `<PrefetchPageLinks>`),
 * which needs the data router's route manifest: with our `<BrowserRouter>` it never prefetches (any `prefetch`
 * but 'none' would throw for want of that context). So, in the browser's and the server's builds alike: the
 * calls are annotated, the names dropped and Link's prefetching cut out. Each edit must find its text, or the
 * build fails: an upgrade that changes the library's code must be looked at again.
 */
function reactRouterTreeShaking(): Plugin {
  const LINK_PREFETCH_HOOK =
    /let \[shouldPrefetch, prefetchRef, prefetchHandlers\] = usePrefetchBehavior\(\s*prefetch,\s*rest\s*\);/;
  const LINK_PREFETCH_ELEMENT =
    /return shouldPrefetch && !isAbsolute \? \/\* @__PURE__ \*\/ (React\d*)\.createElement\(\1\.Fragment, null, link, \/\* @__PURE__ \*\/ \1\.createElement\(PrefetchPageLinks, \{ page: href \}\)\) : link;/;
  return {
    name: 'eventry:react-router-tree-shaking',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/.test(id)) return undefined;
      let out = code
        .replace(/^[\w$]+\.displayName = "[\w.]+";$/gm, '')
        .replace(/= (React\d*\.(?:forwardRef|createContext|memo)\()/g, '= /* @__PURE__ */ $1')
        // A class extending React.Component (the error boundaries of the data router and of <Await>): the read of
        // `Component` could have an effect for all the bundler knows. Each ends at the first `};` of a line.
        .replace(
          /^var ([\w$]+) = (class extends React\d*\.Component \{\n[\s\S]*?\n\});$/gm,
          'var $1 = /* @__PURE__ */ (() => $2)();',
        );
      if (/\bvar Link = React\d*\.forwardRef\(/.test(code)) {
        for (const [pattern, replacement] of [
          [LINK_PREFETCH_HOOK, 'let prefetchRef = null, prefetchHandlers = {};'],
          [LINK_PREFETCH_ELEMENT, 'return link;'],
        ] as const) {
          if (!pattern.test(out)) this.error(`react-router's Link changed: ${pattern} not found (vite.config.ts)`);
          out = out.replace(pattern, replacement);
        }
      }
      return out === code ? undefined : { code: out, map: null };
    },
  };
}

/**
 * React Router reads `React.useOptimistic` where React has it and falls back to plain state where not (Preact's
 * core, docs/decisions/026-preact-runs-the-react-code.md): the bundler's warning that the import is undefined is
 * that fallback, and would be printed by every build.
 */
function quietReactFallbacks(warning: { code?: string; message: string }, warn: (warning: never) => void): void {
  if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('`useOptimistic`')) return;
  warn(warning as never);
}

/** Chunks of pages reached from outside or by few (the admin area, the door, account upkeep): see modulePreload. */
const RARELY_LINKED =
  /(^|\/)(admin-routes|edit-profile|forgot-pass|reset-password|email-verification-result|verification-notice|success-email|payment-failed|check-in|door[\w-]*|not-found)-[\w-]+\.js$/;

/**
 * Vite's development server sends index.html as it is, without the list of the texts' addresses the app's server
 * writes into each page (server/web-app/web-html.ts): the list, with the site's texts in English (index.html's
 * language; the API answers them through the proxy). Not in a build.
 */
function developmentMessages(): Plugin {
  return {
    name: 'eventry-development-messages',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace('</head>', '  <meta name="messages" content="/api/messages/en/site" />\n  </head>'),
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'web',
  publicDir: 'public',
  // The app is written against React's API and runs on Preact's React-compatible core, in the browser and on the
  // server (web/src/app/ssr.tsx renders with preact-render-to-string): a ~10 KB gzip library instead of React DOM's
  // ~60, most of the first load's script evaluation. docs/decisions/026-preact-runs-the-react-code.md.
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  plugins: [
    react(),
    tailwindcss(),
    pageRoutes(),
    noInfiniteQueries(),
    lateMutations(),
    reactRouterTreeShaking(),
    ...(isSsrBuild ? [] : [smallPreloadHelper(), compileHintsOnFirstLoad()]),
    developmentMessages(),
  ],
  // The server-side entry (web/src/app/ssr.tsx) carries its dependencies: the server needs no React install.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        outDir: '../dist/web-ssr',
        emptyOutDir: true,
        target: 'node20',
        sourcemap: false,
        copyPublicDir: false,
        rolldownOptions: {
          onwarn: quietReactFallbacks,
          output: {
            codeSplitting: {
              // The renderer loads ssr.js with a ?v= query (server/web-app/react-render.ts), while the pages' chunks
              // import ../ssr.js without one: two copies of the entry. The page's texts (their React context) must be
              // one module for both, or a lazily loaded page finds no texts and cannot be drawn on the server.
              groups: [{ name: 'i18n', test: /web[\\/]src[\\/]lib[\\/]i18n\.tsx$/ }],
            },
          },
        },
      }
    : {
        outDir: '../dist/web',
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: false,
        assetsInlineLimit: 2048,
        // dist/web/.vite/manifest.json: the server lists each route's chunks in its HTML (server/web-app/template.ts).
        manifest: true,
        modulePreload: {
          // Every browser we support has modulepreload.
          polyfill: false,
          // A lazy import lists the chunks to fetch beside its own, but not the framework and shell chunks: boot.tsx
          // imports both, so every page has them before any lazy import runs. Listing them in each import cost
          // the first load ~40 B gzip. The entry's own import of the app keeps its whole list. The entry itself and
          // its stylesheet are on every page before anything is imported lazily too: listing them in each of the
          // route table's imports cost ~2 B gzip a page.
          // Pages a buyer rarely reaches by a link within the app (the admin area, the door, account upkeep) list
          // nothing: their chunks fetch what they import when they load, one round trip later, instead of every
          // page's first load carrying their lists (~30 B gzip each, and one more with each new module).
          resolveDependencies: (file, deps, { hostType, hostId }) => {
            if (hostType !== 'js' || /(^|\/)index-[\w-]+\.js$/.test(hostId)) return deps;
            if (/(^|\/)boot-[\w-]+\.js$/.test(hostId) && RARELY_LINKED.test(file)) return [];
            return deps.filter((dep) => !/^assets\/((framework|shell)-[\w-]+\.js|index-[\w-]+\.(js|css))$/.test(dep));
          },
        },
        rolldownOptions: {
          onwarn: quietReactFallbacks,
          output: {
            // Seven characters of hash (rolldown's least for this many chunks) tell a file's versions apart. The first
            // load carries every lazily loaded chunk's name (Vite's preload lists): each character more cost ~50 B gzip.
            chunkFileNames: 'assets/[name]-[hash:7].js',
            // What every page needs in one file instead of a dozen small ones (less per-request overhead).
            codeSplitting: {
              groups: [
                {
                  name: 'framework',
                  // Mutations are only used by pages loaded later (forms, booking, admin): not in the first load
                  // (the mutation cache's stand-in for the class of a mutation: lateMutations above).
                  // Our stand-ins for parts of those libraries (web/src/lib/vendor/) go with them.
                  test: (id: string) =>
                    (/node_modules[\\/](preact|react-router|@tanstack)[\\/]/.test(id) &&
                      !/[\\/](useMutation|mutationObserver|mutation)\.js$/.test(id)) ||
                    /web[\\/]src[\\/]lib[\\/]vendor[\\/]/.test(id),
                },
                {
                  // The two clocks of the booking pages (the server's, the app's time zone's) as one small file: each
                  // chunk of its own is one more name in the preload lists every first load carries.
                  name: 'clock',
                  test: /web[\\/]src[\\/]lib[\\/](server|wall)-clock\.ts$/,
                },
                {
                  // The small shared modules every public page loads, as one file: a dozen tiny files
                  // compress worse (about 1.5 KB gzip more on the home page) and cost a request each.
                  name: 'shell',
                  test: SHELL_MODULES,
                },
              ],
            },
          },
        },
      },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
      '/uploads': 'http://127.0.0.1:3000',
    },
  },
}));
