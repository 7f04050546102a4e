import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createMetrics, GAUGE_NAMES } from './metrics.js';

// Needs: nothing but the files infra/grafana/stat-dashboard.json and infra/prometheus.yml.

interface Target {
  expr: string;
  datasource?: { uid?: string };
}
interface Panel {
  type: string;
  title: string;
  datasource?: { uid?: string };
  targets?: Target[];
}
interface Dashboard {
  __inputs: { name: string; type: string; pluginId: string }[];
  panels: Panel[];
}

const dashboard = JSON.parse(readFileSync(new URL('../../infra/grafana/stat-dashboard.json', import.meta.url), 'utf8')) as Dashboard;

/** Every series name a process exposes: each metric of the registry, with a histogram's _bucket, _sum and _count. */
async function exposedNames(): Promise<Set<string>> {
  const metrics = createMetrics();
  // The gauges fed by the parts a process runs, exposed once their sources are given.
  const names = new Set<string>(GAUGE_NAMES);
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

/** The metric names an expression reads: the identifiers of this service's and prom-client's families. */
const namesIn = (expr: string): string[] => [...expr.matchAll(/\b((?:stat|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);

describe('the Grafana dashboard (infra/grafana/stat-dashboard.json)', () => {
  it('reads only metrics the processes expose (a renamed metric fails here)', async () => {
    const exposed = await exposedNames();
    const unknown = exprs.flatMap(namesIn).filter((name) => !exposed.has(name));
    expect(unknown).toEqual([]);
  });

  it('shows every metric of the service', async () => {
    const shown = new Set(exprs.flatMap(namesIn).map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    const ours = [...(await exposedNames())].filter((n) => n.startsWith('stat_') && !/_(bucket|sum|count)$/.test(n));
    expect(ours.filter((n) => !shown.has(n))).toEqual([]);
  });

  it('has the rows Ingestion, Freshness, Storage, Reports, HTTP and Process, in that order', () => {
    expect(dashboard.panels.filter((p) => p.type === 'row').map((p) => p.title)).toEqual(['Ingestion', 'Freshness', 'Storage', 'Reports', 'HTTP', 'Process']);
  });

  it('takes its Prometheus data source as the input DS_PROMETHEUS, in every panel and query', () => {
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThan(0);
    expect(graphs.filter((p) => p.datasource?.uid !== '${DS_PROMETHEUS}').map((p) => p.title)).toEqual([]);
    expect(graphs.flatMap((p) => p.targets ?? []).filter((t) => t.datasource?.uid !== '${DS_PROMETHEUS}')).toEqual([]);
  });
});

describe('the Prometheus configuration (infra/prometheus.yml)', () => {
  it('scrapes /metrics of every process of the compose topology, a job per role', () => {
    const config = parse(readFileSync(new URL('../../infra/prometheus.yml', import.meta.url), 'utf8')) as {
      scrape_configs: { job_name: string; metrics_path: string; static_configs: { targets: string[] }[] }[];
    };
    expect(config.scrape_configs.map((job) => [job.job_name, job.metrics_path, job.static_configs.flatMap((s) => s.targets)])).toEqual([
      ['collector', '/metrics', ['collector-1:8081', 'collector-2:8081']],
      ['aggregator', '/metrics', ['aggregator:8082']],
      ['api', '/metrics', ['api-1:8080', 'api-2:8080']],
    ]);
  });
});
