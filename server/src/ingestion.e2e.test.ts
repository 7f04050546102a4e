import { ingestionSuite } from './testing/ingestion-suite.js';

// Needs: its own embedded service in this process (chDB, PGlite, the hit log as its bus).
// A fixed seed: the same thousands of hits on every run, at any time of day.
ingestionSuite('embedded mode: no hit can stop ingestion', {}, { numRuns: 12, seed: 20261123 });
