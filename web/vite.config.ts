import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The budget of the JavaScript a first visit loads before any screen's own chunk, gzipped (kB = 1000 bytes, as vite prints). */
const INITIAL_JS_BUDGET = 200_000;

/**
 * Prints the gzipped size of the initial JavaScript (the entry chunk and every chunk it imports
 * statically; screens loaded on demand are not counted) and fails the build over the budget.
 */
function initialSize(): Plugin {
  return {
    name: 'stat-initial-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o] as const] : [])));
      const seen = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        for (const dep of chunks.get(name)?.imports ?? []) visit(dep);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      let total = 0;
      for (const name of seen) total += gzipSync(chunks.get(name)?.code ?? '').length;
      const kb = (total / 1000).toFixed(1);
      const line = `initial JS: ${kb} kB gzipped in ${seen.size} chunks (budget ${INITIAL_JS_BUDGET / 1000} kB)`;
      if (total > INITIAL_JS_BUDGET) this.error(`${line}: over the budget`);
      this.info(line);
    },
  };
}

/**
 * The app is served by the api under `/stat/` (SPA routes get `dist/index.html`, assets come from
 * `/stat/assets/*`). In development, `/top100` is proxied to a running api (`API_PORT`, default 8080).
 */
export default defineConfig({
  base: '/stat/',
  plugins: [react(), initialSize()],
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
