import { describe, expect, it } from 'vitest';
import { createLogger } from './log.js';

// Needs: nothing; the lines are captured from the logger's destination.

function captured(level?: 'info' | 'warn') {
  const lines: string[] = [];
  const logger = createLogger({ role: 'api', ...(level ? { level } : {}), destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the logger', () => {
  it('writes JSON lines with the level by name, an ISO time, the role and the message', () => {
    const { logger, lines } = captured();
    logger.info({ request_id: 'r-1' }, 'report query');
    const [line] = lines();
    expect(line).toEqual({ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), role: 'api', request_id: 'r-1', msg: 'report query' });
  });

  it('writes nothing under its level (LOG_LEVEL)', () => {
    const { logger, lines } = captured('warn');
    logger.info('quiet');
    logger.warn('loud');
    expect(lines().map((l) => [l.level, l.msg])).toEqual([['warn', 'loud']]);
  });

  it('redacts credentials and client addresses whatever a caller passes', () => {
    const { logger, lines } = captured();
    logger.info({ password: 'hunter2', ip: '203.0.113.7', headers: { cookie: 'sid=abc', authorization: 'Bearer t' }, user: { token: 'tok' } }, 'careless');
    const text = JSON.stringify(lines());
    for (const secret of ['hunter2', '203.0.113.7', 'sid=abc', 'Bearer t', 'tok"']) expect(text).not.toContain(secret);
    expect(lines()[0]).toMatchObject({ password: '[redacted]', ip: '[redacted]', headers: { cookie: '[redacted]', authorization: '[redacted]' }, user: { token: '[redacted]' } });
  });
});
