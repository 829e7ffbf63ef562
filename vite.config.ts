import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Shared by the public pages (home, events list, event detail); see the 'shell' chunk below. */
const SHELL_MODULES = new RegExp(
  [
    'web/src/components/ui/(button|card|cn|page|skeleton|reveal|spinner|time)\\.tsx?$',
    // The header's and the footer's brand: on every page, and alone it would be a request of its own.
    'web/src/app/layout/brand\\.tsx$',
    'web/src/lib/(api-client|chunk)\\.ts$',
    'web/src/features/accounts/api/get-me\\.ts$',
    'web/src/features/catalogue/(api/use-live-events|components/(event-card|icons|scroll-to-top-button)|hooks/use-debounced-value)\\.tsx?$',
    'contracts/(constants|dates|live|messages/common|messages/catalogue)\\.ts$',
  ]
    .map((pattern) => `(${pattern})`)
    .join('|'),
);

export default defineConfig(({ isSsrBuild }) => ({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  // The server-side entry (web/src/app/ssr.tsx) carries its dependencies: the server needs no React install.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? {
        outDir: '../dist/web-ssr',
        emptyOutDir: true,
        target: 'node20',
        sourcemap: false,
        copyPublicDir: false,
      }
    : {
        outDir: '../dist/web',
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: false,
        assetsInlineLimit: 2048,
        // dist/web/.vite/manifest.json: the server lists each route's chunks in its HTML (server/web-html.ts).
        manifest: true,
        // Every browser we support has modulepreload.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: {
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
