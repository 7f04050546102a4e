// Builds the counter in its variants: one minified file each, its content hash in the name, and
// a manifest naming them with their sizes. Features are compile-time flags (src/flags.d.ts) set
// through esbuild's `define`; the minifier drops what a variant leaves out. Each variant has a
// gzipped-size budget; the build prints every size and fails when one is over.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

/** The variants. `counter` is the default; its file is the manifest's `file`. */
const VARIANTS = [
  { name: 'counter', flags: { COMPILE_BLOCKS: false, COMPILE_READING: false }, budget: 1536 },
  { name: 'counter-full', flags: { COMPILE_BLOCKS: true, COMPILE_READING: true }, budget: 2304 },
];
const out = new URL('./dist/', import.meta.url);

const builds = {};
let over = false;
for (const variant of VARIANTS) {
  const result = await build({
    entryPoints: [new URL('./src/counter.ts', import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2017'],
    write: false,
    legalComments: 'none',
    define: Object.fromEntries(Object.entries(variant.flags).map(([flag, on]) => [flag, String(on)])),
  });
  const code = result.outputFiles[0].contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 10);
  const gzip = gzipSync(code, { level: 9 }).length;
  const features = Object.keys(variant.flags).filter((flag) => variant.flags[flag]);
  builds[variant.name] = { file: `${variant.name}.${hash}.js`, bytes: code.length, gzip, budget: variant.budget, features, code };
  const verdict = gzip > variant.budget ? 'OVER BUDGET' : 'ok';
  console.log(
    `counter-snippet: ${builds[variant.name].file} ${code.length} B, ${gzip} B gzipped (budget ${variant.budget} B) ${verdict}`,
  );
  if (gzip > variant.budget) over = true;
}
if (over) {
  console.error('counter-snippet: over its size budget');
  process.exit(1);
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const manifest = { file: builds.counter.file, builds: {} };
for (const [name, { code, ...facts }] of Object.entries(builds)) {
  await writeFile(new URL(facts.file, out), code);
  manifest.builds[name] = facts;
}
await writeFile(new URL('manifest.json', out), JSON.stringify(manifest, null, 2) + '\n');
