import { fileURLToPath } from 'node:url';

/**
 * `aggregator/data`: the classification tables and geo names. The same relative path works from
 * `src/enrich/` (tests) and from `dist/enrich/` (the build), so no copy step is needed.
 */
export const DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));
