import { Agent, request } from 'node:http';
import type { AcceptedHit } from '@stat/schemas';
import { demoTraffic } from './seed.js';
import { generateTraffic, wireHit } from './traffic.js';

/**
 * The demo is alive: while the service runs, the demo project receives the visits its traffic
 * would have now (the same generator as the seed: the daily rhythm, sources, devices; at the
 * default 5 000 visits a day, three to six visits a minute by day, fewer at night), sent to the
 * service's own collector over HTTP as a browser's counter sends them. So its dashboard moves as
 * a real site's does, and every part from the collector on is the real one.
 */

/**
 * Visits are generated for this much time at once, and sent when their time comes. A visit is
 * cut at the end of its window (the generator stops there): the longer the window, the fewer.
 */
export const LIVE_WINDOW_MS = 30 * 60_000;

export interface DemoLiveOptions {
  /** the collector's origin, e.g. http://127.0.0.1:8081 */
  collectorUrl: string;
  /** visits of an ordinary day (DEMO_VISITS_PER_DAY) */
  visitsPerDay: number;
  /** the clock (tests); default Date.now */
  now?: () => number;
}

/** The running trickle. */
export interface DemoLive {
  /** hits the collector accepted (204) so far */
  readonly accepted: () => number;
  /** stops sending; hits not sent yet are dropped (a demo's visits need not be complete) */
  stop(): void;
}

/** The address this process's collector answers on, from the address it listens on (a wildcard: loopback). */
export function localCollector(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Starts sending the demo's live visits; `log` hears of the first failure of a run of them. */
export function startDemoLive(options: DemoLiveOptions, log: (line: string) => void): DemoLive {
  const now = options.now ?? Date.now;
  const target = new URL('/hit', options.collectorUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let accepted = 0;
  let failing = false;
  let queue: AcceptedHit[] = [];
  let windowEnd = now();

  const post = (hit: AcceptedHit): void => {
    const body = JSON.stringify(wireHit(hit.hit));
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'Content-Length': Buffer.byteLength(body), 'User-Agent': hit.ua, 'X-Forwarded-For': hit.ip },
      },
      (res) => {
        res.resume();
        if (res.statusCode === 204) {
          accepted += 1;
          failing = false;
        } else if (!failing) {
          failing = true;
          log(`demo live traffic: the collector answered ${res.statusCode ?? 0}`);
        }
      },
    );
    req.on('error', (error) => {
      if (!failing) log(`demo live traffic: ${String(error)}`);
      failing = true;
    });
    req.end(body);
  };

  /** The next window's hits, in time order. */
  const plan = (): void => {
    const from = windowEnd;
    windowEnd = from + LIVE_WINDOW_MS;
    const generator = generateTraffic(demoTraffic(from, windowEnd, options.visitsPerDay));
    const hits: AcceptedHit[] = [];
    for (let slice = generator.next(); !slice.done; slice = generator.next()) hits.push(...slice.value);
    hits.sort((a, b) => a.at - b.at);
    queue = queue.concat(hits);
  };

  /** Sends what is due, then sleeps until the next hit (or the next window). */
  const pump = (): void => {
    timer = null;
    if (stopped) return;
    const t = now();
    while (queue.length > 0 && queue[0]!.at <= t) post(queue.shift()!);
    if (queue.length === 0 && windowEnd <= t + 1000) plan();
    const next = queue[0]?.at ?? windowEnd;
    timer = setTimeout(pump, Math.max(50, Math.min(next - t, 60_000)));
    timer.unref();
  };

  plan();
  pump();
  return {
    accepted: () => accepted,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      agent.destroy();
    },
  };
}
