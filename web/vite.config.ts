import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build and dev server. `npm run build` writes it to dist/console/, which the api
 * role serves at /console (src/api/plugins/console-app.ts); `npm run dev` serves it with hot
 * reload and proxies /console/api to a running Nok (NOK_DEV_PROXY_TARGET, default
 * http://127.0.0.1:8080).
 */
const webDir = fileURLToPath(new URL('.', import.meta.url));
const proxyTarget = process.env.NOK_DEV_PROXY_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: webDir,
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: {
      // The console API's zod contract, shared with the server (src/api/console/contract/).
      '@contract': fileURLToPath(new URL('../src/api/console/contract', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Every asset is a file under assets/ with a hash in its name: no data: URIs to allow in
    // the Content-Security-Policy, and one cache rule (immutable) for everything but index.html.
    assetsInlineLimit: 0,
    // The modulepreload polyfill is for browsers without <link rel="modulepreload">; every
    // browser the console supports has it, and leaving it out keeps index.html free of script.
    modulePreload: { polyfill: false },
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/console/api': {
        target: proxyTarget,
        // Nok checks that a state-changing request comes from its own origin (CSRF). Through
        // this proxy the browser's origin is the dev server's, so the proxy presents the
        // request as coming from Nok's own origin, as a same-origin page there would.
        changeOrigin: true,
        configure(proxy) {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin'))
              request.setHeader('origin', new URL(proxyTarget).origin);
          });
        },
      },
    },
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
