import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leadingZeroBits, sha256Hex, sha256Words, solveProofOfWork } from './pow';

const nodeSha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256', () => {
  it.each(['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'x'.repeat(200), '0123456789abcdef0123456789abcdef:123456'])('matches node for %j', (text) => {
    expect(sha256Hex(text)).toBe(nodeSha(text));
  });
});

describe('proof of work (the api captcha)', () => {
  it('counts leading zero bits', () => {
    expect(leadingZeroBits(new Uint32Array([0, 0x00ffffff]))).toBe(40);
    expect(leadingZeroBits(new Uint32Array([0x80000000]))).toBe(0);
  });

  it('finds an answer whose hash the api accepts', async () => {
    const challenge = '0123456789abcdef0123456789abcdef';
    const answer = await solveProofOfWork(challenge, 12);
    expect(answer).toMatch(/^0123456789abcdef0123456789abcdef:\d+$/);
    const digest = createHash('sha256').update(answer).digest();
    expect(digest[0]).toBe(0);
    expect((digest[1] ?? 255) >> 4).toBe(0);
    expect(leadingZeroBits(sha256Words(answer))).toBeGreaterThanOrEqual(12);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(solveProofOfWork('ff', 64, controller.signal, 10)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
