// Builds the counter: one minified file with its content hash in the name, and a manifest
// naming it. Prints the sizes, which have a budget (ARCHITECTURE: the snippet stays tiny).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP = 1536;
const out = new URL('./dist/', import.meta.url);

const result = await build({
  entryPoints: [new URL('./src/counter.ts', import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2017'],
  write: false,
  legalComments: 'none',
});
const code = result.outputFiles[0].contents;
const hash = createHash('sha256').update(code).digest('hex').slice(0, 10);
const file = `counter.${hash}.js`;
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await writeFile(new URL(file, out), code);
await writeFile(new URL('manifest.json', out), JSON.stringify({ file }) + '\n');
const gzip = gzipSync(code, { level: 9 }).length;
console.log(`counter-snippet: ${file} ${code.length} B, ${gzip} B gzipped (budget ${BUDGET_GZIP} B)`);
if (gzip > BUDGET_GZIP) {
  console.error('counter-snippet: over its size budget');
  process.exit(1);
}
