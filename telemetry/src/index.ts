export { createMetrics, GAUGE_NAMES, type GaugeSources, type Metrics } from './metrics.js';
export { createLogger, LOG_LEVELS, type Logger, type LoggerOptions, type LogLevel } from './log.js';
export { opsAnswer, readinessFrom, PROBE_TIMEOUT_MS, type OpsAnswer, type OpsEndpoints, type Probe } from './endpoints.js';
export { readSamples } from './samples.js';
