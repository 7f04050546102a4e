import { readConfig, type Config } from './config.js';

/**
 * The container health check (Dockerfile HEALTHCHECK, compose healthcheck): asks this container's
 * process whether it is ready, on the port its roles listen on, and exits 0 or 1. Plain Node,
 * because the runtime image has no curl.
 */
export function readinessUrlOf(config: Pick<Config, 'ROLES' | 'API_PORT' | 'COLLECTOR_PORT' | 'HEALTH_PORT'>): string {
  const roles = new Set(config.ROLES);
  // The same port choice as main(): the api's port, else the collector's, else the health port.
  const port = roles.has('api') ? config.API_PORT : roles.has('collector') ? config.COLLECTOR_PORT : config.HEALTH_PORT;
  return `http://127.0.0.1:${port}/ready`;
}

async function check(): Promise<number> {
  const url = readinessUrlOf(readConfig());
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(4_000) });
    if (answer.ok) return 0;
    console.error(`${url}: ${answer.status} ${await answer.text()}`);
  } catch (error) {
    console.error(`${url}: ${String(error)}`);
  }
  return 1;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exit(await check());
}
