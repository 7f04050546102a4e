import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';

/** The budget of the JavaScript a first visit loads before any screen's own chunk, gzipped (kB = 1000 bytes, as vite prints). */
const INITIAL_JS_BUDGET = 200_000;

/** Where the api serves the app. */
const BASE = '/stat/';

/** The report views and what only they use (the reports chunk). */
const REPORT_CODE = /[\\/](src[\\/](reports|components)[\\/]|node_modules[\\/]uplot[\\/])/;

/**
 * Report code that a report page shows only when asked (the filter dialog and its value lists, the
 * saved filter template's form): imported dynamically where it opens, and left out of the reports
 * chunk, so that the code compiled before a report's first graph carries none of it.
 */
const ON_DEMAND = /[\\/]src[\\/]reports[\\/]filters[\\/](FilterDialog|ValueList|TemplateForm)\.tsx$/;

/** The app's own chunk: the entry starts the page's calls, then imports it (see src/main.tsx). */
const APP_START = /[\\/]src[\\/]app[\\/]start\.tsx$/;

/** The chunks a first visit loads: the entry's, the app's, and every chunk they import statically. */
function firstVisitChunks(bundle: Rolldown.OutputBundle): { chunks: Map<string, Rolldown.OutputChunk>; names: string[] } {
  const chunks = new Map(Object.values(bundle).flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o] as const] : [])));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of chunks.get(name)?.imports ?? []) visit(dep);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry || chunk.moduleIds.some((id) => APP_START.test(id))) visit(chunk.fileName);
  return { chunks, names: [...seen] };
}

/**
 * Prints the gzipped size of the initial JavaScript (the entry, the app's chunk and every chunk
 * they import statically; screens loaded on demand are not counted) and fails the build over the
 * budget.
 */
function initialSize(): Plugin {
  return {
    name: 'stat-initial-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const { chunks, names } = firstVisitChunks(bundle);
      let total = 0;
      for (const name of names) total += gzipSync(chunks.get(name)?.code ?? '').length;
      const kb = (total / 1000).toFixed(1);
      const line = `initial JS: ${kb} kB gzipped in ${names.length} chunks (budget ${INITIAL_JS_BUDGET / 1000} kB)`;
      if (total > INITIAL_JS_BUDGET) this.error(`${line}: over the budget`);
      this.info(line);
    },
  };
}

/**
 * Names the app's chunk (and what it imports) in index.html as `modulepreload`, so that it loads
 * alongside the small entry instead of after it ran.
 */
function preloadApp(): Plugin {
  return {
    name: 'stat-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const { chunks, names } = firstVisitChunks(ctx.bundle);
        const entry = [...chunks.values()].find((c) => c.isEntry);
        const named = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const tags = names
          .filter((name) => !named.has(name))
          .map((name) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `${BASE}${name}` }, injectTo: 'head' as const }));
        return { html, tags };
      },
    },
  };
}

/**
 * The app runs on Preact's React layer (`preact/compat`), not on react-dom: the code is written and
 * typed against React and its dom tests run on React (vitest does not read this file), but what a
 * browser loads is Preact. A cold report page is mostly its main thread's work (React's and the
 * router's code evaluated, then the renders), and react-dom was 207 of the app chunk's 380 KB: with
 * Preact the chunk is 180 KB (54 KB brotli instead of 103) and a load's main thread ~60 ms less CPU
 * (benchmarks/RESULTS.md, "first graph, fourth run"). Every browser test runs on this build.
 */
const REACT_ON_PREACT = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * The app is served by the api under `/stat/` (SPA routes get `dist/index.html`, assets come from
 * `/stat/assets/*`). In development, `/top100` is proxied to a running api (`API_PORT`, default 8080).
 */
export default defineConfig(({ command }) => ({
  base: BASE,
  plugins: [react(), initialSize(), preloadApp()],
  // The build only: `vite` (development) stays on React, whose Fast Refresh the react plugin adds.
  resolve: { alias: command === 'build' ? REACT_ON_PREACT : [] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    // One stylesheet for the whole app (81 KB raw, 13 KB brotli), linked from index.html: a screen's
    // chunk then never waits for CSS files of its own.
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What the entry imports statically, in one file with it: the report rules and the
            // api client the early calls need, not React (a browser opens six connections to the
            // api; each small file waited for a free one).
            { name: 'entry', tags: ['$initial'], priority: 3 },
            // The app (React, the router, the shell, the layouts) and all it imports statically, in
            // one file that loads alongside the entry (index.html names it).
            { name: 'app', test: APP_START, priority: 2 },
            // The report views and what only they use, as one chunk: the code of a report page
            // in one call instead of eleven.
            // What a page shows only when asked (the filter dialog, the template form) stays out
            // of it, in chunks loaded as they first open.
            { name: 'reports', test: (id) => REPORT_CODE.test(id) && !ON_DEMAND.test(id), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/top100': `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`,
    },
  },
}));
