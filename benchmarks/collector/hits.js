// k6 load: page-view hits POSTed to the collector exactly as the counter snippet sends them
// (text/plain JSON, so browsers send no CORS preflight). Wire format: schemas/src/hit.ts.
//
//   benchmarks/.bin/k6 run -e TARGET=http://127.0.0.1:8081 benchmarks/collector/hits.js
//
// Environment (defaults): TARGET=http://127.0.0.1:8081, VUS=64, DURATION=20s,
// PROJECT=7596044, PAGES=500 distinct urls, VISITORS=20000 distinct visitor ids.
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

// Small deterministic generator so runs are comparable; seeded per VU.
let state = 0;
function next() {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state;
}

export default function () {
  if (state === 0) state = (__VU * 2654435761) >>> 0 || 1;
  const page = next() % PAGES;
  const visitor = next() % VISITORS;
  const screen = SCREENS[next() % SCREENS.length];
  const body = JSON.stringify({
    p: PROJECT,
    t: 'pageview',
    u: `https://bench.example.ru/catalog/${page}?utm_source=bench`,
    r: REFERRERS[next() % REFERRERS.length],
    ti: `Страница ${page}`,
    sw: screen[0],
    sh: screen[1],
    v: `bench-visitor-${visitor}`,
  });
  const res = http.post(`${TARGET}/hit`, body, PARAMS);
  check(res, { 'status is 204': (r) => r.status === 204 });
}
