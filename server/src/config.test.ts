import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

// Needs: nothing.
describe('readConfig', () => {
  it('refuses a hit log limit that the segment being written could fill alone (hits would be refused for good), naming the key', () => {
    expect(() => readConfig({ HITLOG_SEGMENT_BYTES: '1048576', HITLOG_MAX_BYTES: '2097151' })).toThrow(/HITLOG_MAX_BYTES: at least twice HITLOG_SEGMENT_BYTES \(2097152\)/);
    expect(readConfig({ HITLOG_SEGMENT_BYTES: '1048576', HITLOG_MAX_BYTES: '2097152' }).HITLOG_MAX_BYTES).toBe(2_097_152);
  });

  it('accepts the defaults', () => {
    const config = readConfig({});
    expect(config.HITLOG_MAX_BYTES).toBeGreaterThanOrEqual(2 * config.HITLOG_SEGMENT_BYTES);
  });
});
