import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryKv } from '../kv/kv.js';
import { leadingZeroBits, ProofOfWork, solve } from './pow.js';

// Needs: nothing.
describe('proof-of-work captcha', () => {
  it('accepts a solved challenge once, and nothing else', async () => {
    const pow = new ProofOfWork(new MemoryKv());
    const { challenge, difficulty } = await pow.issue();
    expect(challenge).toMatch(/^[0-9a-f]{32}$/);
    const answer = solve(challenge, difficulty);
    expect(await pow.verify('garbage')).toBe(false);
    expect(await pow.verify(undefined)).toBe(false);
    expect(await pow.verify(`${'0'.repeat(32)}:1`)).toBe(false);
    expect(await pow.verify(answer)).toBe(true);
    expect(await pow.verify(answer)).toBe(false);
    const other = await pow.issue();
    const right = solve(other.challenge, difficulty);
    let nonce = 0;
    while (`${other.challenge}:${nonce}` === right || leadingZeroBits(createHash('sha256').update(`${other.challenge}:${nonce}`).digest()) >= difficulty) nonce++;
    // A wrong nonce spends the challenge too: no guessing on one challenge.
    expect(await pow.verify(`${other.challenge}:${nonce}`)).toBe(false);
    expect(await pow.verify(right)).toBe(false);
  });
  it('counts leading zero bits', () => {
    expect(leadingZeroBits(Buffer.from([0, 0, 0x0f]))).toBe(20);
    expect(leadingZeroBits(Buffer.from([0x80]))).toBe(0);
    expect(leadingZeroBits(Buffer.from([0, 1]))).toBe(15);
  });
});
