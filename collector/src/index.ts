export { startCollector, type CollectorConfig, type RunningCollector } from './server.js';
export { HitBuffer, type HitBufferOptions } from './buffer.js';
export { acceptBody, acceptQuery, type Acceptance, type RequestFacts } from './accept.js';
