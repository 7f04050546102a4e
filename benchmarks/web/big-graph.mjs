// Big graph: how a report page draws a graph of 100 000 points and how it updates it (issue 11:
// no long task over 200 ms; a change of period or of the drawn lines goes through uPlot's setData,
// the chart is never re-created). In headless Chromium against the embedded service: the report
// page and its chart code are the app's own; only the graph call's answer is replaced by one of
// LINES lines × POINTS points (five-minute buckets), so that the size does not depend on the
// demo's data. Long tasks come from the browser's PerformanceObserver ('longtask').
//
//   npm run build && node benchmarks/web/big-graph.mjs
//
// Environment (defaults): LINES=10, POINTS=10000, RUNS=3; DATA_DIR=<dir> keeps the service's data
// (the demo is seeded once; a later run on the same directory starts at once).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { load, machine, startDemoService } from '../lib/harness.mjs';

const LINES = Number(process.env.LINES || 10);
const POINTS = Number(process.env.POINTS || 10_000);
const RUNS = Number(process.env.RUNS || 3);
const PROJECT = 7596044;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const say = (msg) => console.log(`[big-graph] ${msg}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);

/** A graph answer of the asked lines (or LINES default ones), POINTS five-minute points each, plus «Итого». */
function bigAnswer(body, seed) {
  const metrics = body.metrics ?? ['visits', 'visitors', 'page_views'];
  const ids = body.selected_lines ?? Array.from({ length: LINES }, (_, i) => JSON.stringify([`line${i}`]));
  const start = Date.UTC(2026, 9, 1) / 1000;
  const line = (id, title, k) => ({
    id,
    title,
    points: Array.from({ length: POINTS }, (_, j) => {
      const ts = start + j * 300;
      const value = Math.round(50 + 40 * Math.sin((j + k * 37 + seed) / 50) + k * 5);
      return { ts, date: new Date(ts * 1000).toISOString().replace('T', ' ').slice(0, 19), metrics: metrics.map(() => value) };
    }),
  });
  const data = [line('total', 'Итого', 0), ...ids.map((id, k) => line(id, `Строка ${k + 1}`, k + 1))];
  return { responseStatus: 200, result: { metrics, data, totals: metrics.map(() => 0), sample: 1 } };
}

// Before the page's scripts: collects long tasks, and marks the chart's canvas so that a
// re-created chart (a new canvas) shows.
const WATCH = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
};

const keep = Boolean(process.env.DATA_DIR);
const dataDir = process.env.DATA_DIR || mkdtempSync(join(tmpdir(), 'stat-bench-big-graph-'));
mkdirSync(dataDir, { recursive: true });
const { service, apiPort } = await startDemoService(dataDir, { DEMO_DAYS: '7', DEMO_LIVE: 'false' });
const base = `http://127.0.0.1:${apiPort}`;
const browser = await chromium.launch({ executablePath: execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim(), args: FLAGS, headless: true });

/** Waits until the chart's canvas holds paint. */
const painted = (page) =>
  page.waitForFunction(
    () => {
      const canvas = document.querySelector('[data-testid="report-graph"] canvas');
      const ctx = canvas?.getContext('2d');
      if (!ctx || canvas.width === 0) return false;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0 && ++n > 1000) return true;
      return false;
    },
    null,
    { timeout: 120_000, polling: 50 },
  );

/** One load, then a change of lines and a change of period: long tasks and whether the canvas stayed. */
async function runOnce() {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH);
    let seed = 0;
    await page.route('**/report/*/traffic_sources/graph', async (route) => {
      const body = route.request().postDataJSON();
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(bigAnswer(body, (seed += 7))) });
    });
    await page.goto(`${base}/stat/projects/${PROJECT}/new/report/traffic_sources?dateStart=7days&dateEnd=today&groupBy=day`);
    await painted(page);
    await page.waitForTimeout(300);
    const first = await page.evaluate(() => {
      const canvas = document.querySelector('[data-testid="report-graph"] canvas');
      canvas.__mark = true;
      const tasks = window.__longTasks;
      window.__longTasks = [];
      return tasks;
    });
    // The drawn lines change: a row of the table is unchecked.
    const asked = page.waitForRequest((r) => r.url().endsWith('/traffic_sources/graph') && Array.isArray(r.postDataJSON().selected_lines));
    await page.locator('[data-testid="report-row"] [data-testid="line-toggle"]').first().click();
    await asked;
    await page.waitForTimeout(1500);
    const lines = await page.evaluate(() => {
      const tasks = window.__longTasks;
      window.__longTasks = [];
      return { tasks, same: document.querySelector('[data-testid="report-graph"] canvas')?.__mark === true };
    });
    // The period changes: «30 дней».
    const periodAsked = page.waitForRequest((r) => r.url().endsWith('/traffic_sources/graph'));
    await page.getByRole('button', { name: '30 дней', exact: true }).click();
    await periodAsked;
    await page.waitForTimeout(1500);
    const period = await page.evaluate(() => ({
      tasks: window.__longTasks,
      same: document.querySelector('[data-testid="report-graph"] canvas')?.__mark === true,
    }));
    return { first, lines, period };
  } finally {
    await context.close();
  }
}

const worst = (tasks) => tasks.reduce((mx, t) => Math.max(mx, t.ms), 0);
try {
  say(`graph of ${LINES} lines + «Итого» × ${POINTS} points = ${((LINES + 1) * POINTS).toLocaleString('en')} points`);
  await runOnce(); // warm-up: the report's code, the demo's first queries
  console.log('| run | load: long tasks (worst ms) | lines changed: long tasks (worst ms), chart kept | period changed: long tasks (worst ms), chart kept |');
  console.log('| ---: | --- | --- | --- |');
  for (let i = 1; i <= RUNS; i++) {
    const r = await runOnce();
    const cell = (x) => `${x.tasks.length} (${worst(x.tasks).toFixed(0)})`;
    console.log(`| ${i} | ${cell({ tasks: r.first })} | ${cell(r.lines)}, ${r.lines.same ? 'kept' : 'RE-CREATED'} | ${cell(r.period)}, ${r.period.same ? 'kept' : 'RE-CREATED'} |`);
  }
  say(`load after: ${load().join(' ')}`);
} finally {
  await browser.close();
  await service.stop();
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
}
