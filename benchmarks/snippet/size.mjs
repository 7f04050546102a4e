// The counter's size as a browser downloads it: every build of counter-snippet/dist (run
// `npm run build -w counter-snippet` first), raw, gzip -9 and brotli (what a CDN or the api's
// compression would send), against each build's gzip budget.
//
//   node benchmarks/snippet/size.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ROOT, machine } from '../lib/harness.mjs';

const dist = join(ROOT, 'counter-snippet/dist');
const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
const m = machine();
console.log(`[snippet] ${new Date().toISOString()} node ${m.node}`);
console.log('| build | features | raw B | gzip B | brotli B | gzip budget B | headroom B |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, build] of Object.entries(manifest.builds)) {
  const code = readFileSync(join(dist, build.file));
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const features = build.features.length > 0 ? build.features.join(', ') : 'core';
  console.log(`| ${name} | ${features} | ${code.length} | ${gzip} | ${brotli} | ${build.budget} | ${build.budget - gzip} |`);
}
