// k6 load: page-view hits POSTed to the collector exactly as the counter snippet sends them
// (text/plain JSON, so browsers send no CORS preflight). Wire format: schemas/src/hit.ts.
//
//   benchmarks/.bin/k6 run -e TARGET=http://127.0.0.1:8081 benchmarks/collector/hits.js
//
// Environment (defaults): TARGET=http://127.0.0.1:8081, VUS=64, DURATION=20s,
// PROJECT=7596044, PAGES=500 distinct urls, VISITORS=20000 distinct visitor ids,
// BODIES=1024 distinct hits per VU.
import http from 'k6/http';
import { check } from 'k6';

const TARGET = __ENV.TARGET || 'http://127.0.0.1:8081';
const PROJECT = Number(__ENV.PROJECT || 7596044);
const PAGES = Number(__ENV.PAGES || 500);
const VISITORS = Number(__ENV.VISITORS || 20000);

export const options = {
  vus: Number(__ENV.VUS || 64),
  duration: __ENV.DURATION || '20s',
  discardResponseBodies: true,
  // Every hit must be accepted: a 503 (buffer full) or 400 fails the run.
  thresholds: { checks: ['rate==1'] },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(99)', 'max'],
  // Fewer tags per sample: less load-generator CPU, which here is taken from the server's share.
  systemTags: ['status', 'check'],
};

const SCREENS = [
  [1920, 1080],
  [1366, 768],
  [1536, 864],
  [390, 844],
  [412, 915],
  [2560, 1440],
];
const REFERRERS = ['', '', '', 'https://yandex.ru/search/?text=analytics', 'https://www.google.com/', 'https://t.me/'];
const PARAMS = { headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, tags: { name: 'hit' } };

// A small deterministic generator so that runs are comparable; seeded per VU.
let state = (__VU * 2654435761) >>> 0 || 1;
function next() {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state;
}

function makeHit() {
  const page = next() % PAGES;
  const screen = SCREENS[next() % SCREENS.length];
  return JSON.stringify({
    p: PROJECT,
    t: 'pageview',
    u: `https://bench.example.ru/catalog/${page}?utm_source=bench`,
    r: REFERRERS[next() % REFERRERS.length],
    ti: `Страница ${page}`,
    sw: screen[0],
    sh: screen[1],
    v: `bench-visitor-${next() % VISITORS}`,
  });
}

// Bodies are made once per VU, in the init stage: on a 2-core machine k6 shares the CPU with
// the server under test, and building JSON per request would be load-generator work measured
// as server slowness. Each VU cycles through its own BODIES distinct hits.
const BODIES = Array.from({ length: Number(__ENV.BODIES || 1024) }, makeHit);
const HIT_URL = `${TARGET}/hit`;

export default function () {
  const res = http.post(HIT_URL, BODIES[__ITER % BODIES.length], PARAMS);
  check(res, { 'status is 204': (r) => r.status === 204 });
}
