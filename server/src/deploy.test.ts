import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';
import { readinessUrlOf } from './healthcheck.js';

// The deployment files, checked without Docker (the build machines have none): the compose file
// through a compose linter (dclint, which validates it against the Compose specification) and the
// topology's own rules; the Dockerfile parsed, with every path it copies checked against the built
// tree (`npm test` builds first). What this cannot check is that the images run: see infra/README.md.

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');
const run = promisify(execFile);

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  profiles?: string[];
}

const compose = parse(read('infra/docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
/** The service's own processes: the containers built from the Dockerfile. */
const ours = Object.entries(services).filter(([, s]) => s.build);

/** `${NAME:-default}` as compose reads it when NAME is not set. */
function withDefaults(value: string | number | boolean): string {
  return String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
}

describe('infra/docker-compose.yml', () => {
  it('passes the compose linter with no errors (the Compose specification schema)', async () => {
    const dclint = `${root}node_modules/dclint/bin/dclint.cjs`;
    const { stdout } = await run(process.execPath, [dclint, '-q', '-f', 'json', 'infra/docker-compose.yml'], { cwd: root }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }),
    );
    const errors = (JSON.parse(stdout) as { messages: { type: string; message: string }[] }[]).flatMap((f) => f.messages).filter((m) => m.type === 'error');
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it('runs the cluster: two collectors, one aggregator, two api processes behind a proxy, on the four servers', () => {
    const roles = Object.fromEntries(ours.map(([name, s]) => [name, s.environment?.ROLES]));
    expect(roles).toEqual({ 'collector-1': 'collector', 'collector-2': 'collector', aggregator: 'aggregator', 'api-1': 'api', 'api-2': 'api' });
    for (const server of ['kafka', 'clickhouse', 'postgres', 'redis', 'proxy']) expect(Object.keys(services)).toContain(server);
    for (const [, s] of ours) expect(s.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
    expect(existsSync(`${root}Dockerfile`)).toBe(true);
  });

  it('gives every container a health check and starts a container only after what it needs is healthy', () => {
    for (const [name, s] of Object.entries(services)) {
      expect(s.healthcheck?.test, `${name} has no health check`).toBeDefined();
      for (const [needed, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(Object.keys(services), `${name} depends on an unknown ${needed}`).toContain(needed);
        expect(condition).toBe('service_healthy');
      }
    }
    // The aggregator applies the ClickHouse migrations before any api process reads.
    expect(Object.keys(services['api-1']?.depends_on ?? {})).toContain('aggregator');
  });

  it("gives the service's processes a configuration the service accepts, pointing at the compose servers", () => {
    for (const [name, s] of ours) {
      const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, withDefaults(v)]));
      const config = readConfig(env);
      expect(config.KAFKA_BROKERS, name).toEqual(['kafka:19092']);
      expect(new URL(config.CLICKHOUSE_URL ?? '').hostname, name).toBe('clickhouse');
      expect(new URL(config.DATABASE_URL ?? '').hostname, name).toBe('postgres');
      expect(new URL(config.REDIS_URL ?? '').hostname, name).toBe('redis');
    }
    // Kafka advertises the address the containers use.
    expect(String(services.kafka?.environment?.KAFKA_ADVERTISED_LISTENERS)).toContain('INTERNAL://kafka:19092');
  });

  it('proxies hits to both collectors and everything else to both api processes, on their configured ports', () => {
    const nginx = read('infra/nginx.conf');
    const upstream = (name: string): string[] => [...(nginx.match(new RegExp(`upstream ${name} \\{([^}]*)\\}`))?.[1] ?? '').matchAll(/server ([\w-]+:\d+)/g)].map((m) => m[1] ?? '');
    const defaults = readConfig({});
    expect(upstream('collectors')).toEqual([`collector-1:${defaults.COLLECTOR_PORT}`, `collector-2:${defaults.COLLECTOR_PORT}`]);
    expect(upstream('apis')).toEqual([`api-1:${defaults.API_PORT}`, `api-2:${defaults.API_PORT}`]);
    expect(services.proxy?.volumes).toContain('./nginx.conf:/etc/nginx/nginx.conf:ro');
    // Mounted files exist beside the compose file.
    for (const s of Object.values(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0] ?? '';
        if (source.startsWith('./')) expect(existsSync(`${root}infra/${source.slice(2)}`), volume).toBe(true);
      }
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = DockerfileParser.parse(read('Dockerfile'));
  const stages = dockerfile.getFROMs().map((from) => from.getBuildStage());
  const instructions = dockerfile.getInstructions();
  const runtimeStart = instructions.indexOf(dockerfile.getFROMs().at(-1) as Instruction);
  const runtime = instructions.slice(runtimeStart);
  const args = (i: Instruction): string[] => i.getArguments().map((a) => a.getValue());

  it('builds in one stage and runs from a second one as an unprivileged user', () => {
    expect(stages).toEqual(['build', 'runtime']);
    const users = runtime.filter((i) => i.getKeyword() === 'USER').map((i) => i.getArgumentsContent());
    expect(users.at(-1)).toBe('node');
    expect(runtime.find((i) => i.getKeyword() === 'CMD')?.getArgumentsContent()).toBe('["node", "server/dist/main.js"]');
    expect(runtime.find((i) => i.getKeyword() === 'HEALTHCHECK')?.getArgumentsContent()).toContain('server/dist/healthcheck.js');
  });

  it('installs every workspace of the repository', () => {
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    const copied = instructions.filter((i) => i.getKeyword() === 'COPY' && !i.getArgumentsContent()?.includes('--from')).flatMap(args);
    for (const workspace of workspaces) expect(copied, workspace).toContain(`${workspace}/package.json`);
  });

  it('copies into the runtime image only paths that the build makes', () => {
    const copies = runtime.filter((i) => i.getKeyword() === 'COPY').map((i) => args(i).filter((a) => !a.startsWith('--')));
    expect(copies.length).toBeGreaterThan(10);
    for (const [source] of copies) {
      expect(source?.startsWith('/app/'), source).toBe(true);
      expect(existsSync(`${root}${(source ?? '').slice('/app/'.length)}`), `${source} is not in the built tree`).toBe(true);
    }
    for (const built of ['server/dist/main.js', 'server/dist/healthcheck.js', 'web/dist/index.html', 'counter-snippet/dist/counter.js']) {
      expect(copies.some(([source]) => `${root}${built}`.startsWith(`${root}${(source ?? '').slice('/app/'.length)}`)), built).toBe(true);
    }
  });

  it('keeps installed and built files out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.infra', 'data']) expect(ignored).toContain(pattern);
  });
});

describe('the container health check', () => {
  it("asks the process's readiness on the port its roles listen on", () => {
    const at = (ROLES: string): string => readinessUrlOf(readConfig({ ROLES, KAFKA_BROKERS: 'kafka:19092' }));
    expect(at('api')).toBe('http://127.0.0.1:8080/ready');
    expect(at('collector')).toBe('http://127.0.0.1:8081/ready');
    expect(at('aggregator')).toBe('http://127.0.0.1:8082/ready');
    expect(at('collector,aggregator,api')).toBe('http://127.0.0.1:8080/ready');
  });
});
