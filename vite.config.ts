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
    'contracts/(constants|dates|category-name|i18n/i18n)\\.ts$',
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

/**
 * TanStack Query's query cache imports the paging code of infinite queries for the queries that use it; the app
 * has none, so the browser's build gets a stand-in that fails loudly if one is ever created
 * (web/src/lib/vendor/no-infinite-queries.ts).
 */
function noInfiniteQueries(): Plugin {
  const stand = path.join(import.meta.dirname, 'web/src/lib/vendor/no-infinite-queries.ts');
  return {
    name: 'eventry:no-infinite-queries',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === './infiniteQueryBehavior.js' &&
        importer &&
        /@tanstack[\\/]query-core[\\/].*[\\/]query\.js$/.test(importer)
      ) {
        return stand;
      }
      return undefined;
    },
  };
}

/** Chunks of pages reached from outside or by few (the admin area, the door, account upkeep): see modulePreload. */
const RARELY_LINKED =
  /(^|\/)(admin-routes|edit-profile|forgot-pass|reset-password|email-verification-result|verification-notice|success-email|payment-failed|check-in|door[\w-]*|not-found)-[\w-]+\.js$/;

export default defineConfig(({ isSsrBuild }) => ({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), pageRoutes(), noInfiniteQueries()],
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
          output: {
            // Seven characters of hash (rolldown's least for this many chunks) tell a file's versions apart. The first
            // load carries every lazily loaded chunk's name (Vite's preload lists): each character more cost ~50 B gzip.
            chunkFileNames: 'assets/[name]-[hash:7].js',
            // What every page needs in one file instead of a dozen small ones (less per-request overhead).
            codeSplitting: {
              groups: [
                {
                  name: 'framework',
                  // Mutations are only used by pages loaded later (forms, booking, admin): not in the first load.
                  test: (id: string) =>
                    /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/.test(id) &&
                    !/[\\/](useMutation|mutationObserver)\.js$/.test(id),
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
