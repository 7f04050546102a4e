// First graph: how long a demo report page takes from navigation to a drawn graph (the uPlot
// canvas painted with data) in headless Chromium against the embedded service, median of RUNS
// loads each in a fresh browser context (empty cache, no session: the demo project is public);
// and how many bytes of JavaScript the first load needs, gzipped and brotli, as the api sends
// them. The calls of the median load are printed with their start and end, so that calls made
// one after another show.
//
//   npm run build && node benchmarks/web/first-graph.mjs
//
// Environment (defaults): RUNS=5, DEMO_DAYS=35, REPORTS=summary,traffic_sources; DATA_DIR=<dir>
// keeps the service's data there (the demo is seeded once, minutes on two cores; a later run on
// the same directory starts at once), else a temporary directory is used and removed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { cpuSeconds, load, machine, ROOT, startDemoService } from '../lib/harness.mjs';

const RUNS = Number(process.env.RUNS || 5);
const DAYS = process.env.DEMO_DAYS || '35';
const REPORTS = (process.env.REPORTS || 'summary,traffic_sources').split(',');
const PROJECT = 7596044;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const say = (m) => console.log(`[first-graph] ${m}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);

/** The JS the first load fetches: the entry script and the chunks index.html preloads (modulepreload). */
function initialScripts() {
  const html = readFileSync(join(ROOT, 'web/dist/index.html'), 'utf8');
  const names = [...html.matchAll(/(?:src|href)="\/stat\/assets\/([^"]+\.js)"/g)].map((x) => x[1]);
  const size = (file) => {
    try {
      return statSync(join(ROOT, 'web/dist/assets', file)).size;
    } catch {
      return NaN;
    }
  };
  // A file below compress.mjs's threshold has no .gz or .br: the api sends it as it is.
  return names.map((name) => {
    const raw = size(name);
    const packed = (file) => (Number.isNaN(size(file)) ? raw : size(file));
    return { name, raw, gzip: packed(`${name}.gz`), brotli: packed(`${name}.br`) };
  });
}

// Set before the page's own scripts: watches every frame for the graph's canvas to hold paint.
const WATCH = (selector) => {
  const check = () => {
    const canvas = document.querySelector(`${selector} canvas`);
    const ctx = canvas?.getContext('2d');
    if (ctx && canvas.width > 0 && canvas.height > 0) {
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0 && ++painted > 1000) break;
      if (painted > 1000) {
        window.__firstGraph = performance.now();
        return;
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

const keep = Boolean(process.env.DATA_DIR);
const dataDir = process.env.DATA_DIR || mkdtempSync(join(tmpdir(), 'stat-bench-first-graph-'));
mkdirSync(dataDir, { recursive: true });
const { service, apiPort } = await startDemoService(dataDir, { DEMO_DAYS: DAYS });
const base = `http://127.0.0.1:${apiPort}`;
const browser = await chromium.launch({ executablePath: execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim(), args: FLAGS, headless: true });

/** CPU seconds so far of each live process under this one (Chromium's browser, renderers, GPU and network processes), by pid. */
function browserCpu() {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid) => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return new Map([...parent.keys()].filter((pid) => pid !== service.pid && ours(pid)).map((pid) => [pid, cpuSeconds(pid)]));
}

/**
 * CPU the machine spent on one load until the graph was drawn, in ms: Chromium's processes and the
 * service's (chDB's threads included). Unlike the times, it hardly depends on what else runs.
 */
function cpuSince(before) {
  let browserMs = 0;
  for (const [pid, s] of browserCpu()) browserMs += (s - (before.browser.get(pid) ?? 0)) * 1000;
  return { browserCpu: browserMs, serviceCpu: (cpuSeconds(service.pid) - before.service) * 1000 };
}

/** One cold load: ms to the drawn graph, the calls the page made (start, end in ms from navigation), the CPU it took. */
async function loadOnce(url, selector) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH, selector);
    const before = { browser: browserCpu(), service: cpuSeconds(service.pid) };
    await page.goto(url);
    await page.waitForFunction(() => window.__firstGraph !== undefined, null, { timeout: 60_000, polling: 50 });
    const cpu = cpuSince(before);
    return await page.evaluate((cpu) => ({
      ...cpu,
      ms: window.__firstGraph,
      calls: performance
        .getEntriesByType('resource')
        // `other`: the chunks index.html names as modulepreload.
        .filter((e) => ['fetch', 'script', 'link', 'other'].includes(e.initiatorType))
        .filter((e) => e.startTime < window.__firstGraph)
        .map((e) => ({ name: new URL(e.name).pathname.replace(/^\/top100/, ''), start: e.startTime, end: e.responseEnd })),
    }), cpu);
  } finally {
    await context.close();
  }
}

try {
  const scripts = initialScripts();
  const sum = (key) => scripts.reduce((s, x) => s + x[key], 0);
  say(`initial JS: ${scripts.length} files, ${sum('raw')} bytes, gzip ${sum('gzip')}, brotli ${sum('brotli')}`);
  for (const s of scripts) say(`  ${s.name}: ${s.raw} (gzip ${s.gzip}, brotli ${s.brotli})`);

  // Besides the drawn graph, per load: when the report's own calls (graph, table) started, when
  // the last of them was answered, and how long the browser took from there to the drawn graph;
  // medians of the loads, so that where a change moved the time shows through the machine's noise.
  console.log('| report | median ms | min ms | max ms | data calls start | data answered | answered → drawn | browser CPU ms | service CPU ms |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const waterfalls = [];
  for (const report of REPORTS) {
    const url = `${base}/stat/projects/${PROJECT}/new/report/${report}`;
    const selector = report === 'summary' ? '[data-testid="summary-graph"]' : '[data-testid="report-graph"]';
    await loadOnce(url, selector); // warm-up: the first query of each shape compiles its plan
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await loadOnce(url, selector));
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[Math.floor((runs.length - 1) / 2)];
    const data = runs.map((r) => r.calls.filter((c) => /\/report\/v1\.0\/report\/\d+\/[a-z_]+\/(graph|table)$/.test(c.name)));
    const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const start = mid(data.map((cs) => Math.min(...cs.map((c) => c.start))));
    const answered = data.map((cs) => Math.max(...cs.map((c) => c.end)));
    const tail = mid(runs.map((r, i) => r.ms - answered[i]));
    console.log(`| ${report} | ${median.ms.toFixed(0)} | ${runs[0].ms.toFixed(0)} | ${runs[runs.length - 1].ms.toFixed(0)} | ${start.toFixed(0)} | ${mid(answered).toFixed(0)} | ${tail.toFixed(0)} | ${mid(runs.map((r) => r.browserCpu)).toFixed(0)} | ${mid(runs.map((r) => r.serviceCpu)).toFixed(0)} |`);
    waterfalls.push([report, median]);
  }
  for (const [report, run] of waterfalls) {
    say(`calls of the median ${report} load (ms from navigation; graph drawn at ${run.ms.toFixed(0)}):`);
    for (const c of run.calls.sort((a, b) => a.start - b.start)) say(`  ${c.start.toFixed(0).padStart(5)} → ${c.end.toFixed(0).padStart(5)}  ${c.name}`);
  }
  say(`load after: ${load().join(' ')}`);
} finally {
  await browser.close();
  await service.stop();
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
}
