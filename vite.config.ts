import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/,
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
