import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The app is served by the api under `/stat/` (SPA routes get `dist/index.html`, assets come from
 * `/stat/assets/*`). In development, `/top100` is proxied to a running api (`API_PORT`, default 8080).
 */
export default defineConfig({
  base: '/stat/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
  },
  server: {
    port: 5173,
    proxy: {
      '/top100': `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`,
    },
  },
});
