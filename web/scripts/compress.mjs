// Precompresses the web build (dist/) at build time: a .br (brotli, quality 11) and a .gz (gzip,
// level 9) beside every text file worth it, so that the api sends them as they are, with no
// compression per request (api/src/static.ts). Prints what it wrote.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = new URL('../dist/', import.meta.url).pathname;
/** Text types only: images and fonts are compressed already. */
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/**
 * Below this a compressed copy of an asset saves little. index.html is compressed whatever its
 * size: every visit asks for it first, and the api sends it by the same rule as the assets.
 */
const MIN_BYTES = 1024;
const ALWAYS = /(^|\/)index\.html$/;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (TEXT.test(entry.name)) yield path;
  }
}

let before = 0;
let brotli = 0;
let gzip = 0;
for await (const path of files(DIST)) {
  if ((await stat(path)).size < MIN_BYTES && !ALWAYS.test(path)) continue;
  const body = await readFile(path);
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz = gzipSync(body, { level: 9 });
  await writeFile(`${path}.br`, br);
  await writeFile(`${path}.gz`, gz);
  before += body.length;
  brotli += br.length;
  gzip += gz.length;
  console.log(`${relative(DIST, path).padEnd(48)} ${String(body.length).padStart(8)}  br ${String(br.length).padStart(7)}  gz ${String(gz.length).padStart(7)}`);
}
console.log(`precompressed ${before} bytes: brotli ${brotli}, gzip ${gzip}`);
