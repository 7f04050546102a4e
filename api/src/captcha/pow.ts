import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CaptchaChallenge } from '@stat/schemas/projects';
import type { Kv } from '../kv/kv.js';
import { LIMIT_KV } from '../tokens.js';

/** Leading zero bits demanded: about 65,000 hashes, a second or less in a browser. */
const POW_DIFFICULTY = 16;
const CHALLENGE_TTL_MS = 10 * 60_000;

/**
 * A self-hosted captcha: a proof of work. The client finds a nonce such that
 * sha256(challenge + ":" + nonce) starts with `difficulty` zero bits. A challenge is stored in
 * the shared store and taken on use, so it answers once, in any api process, within 10 minutes.
 */
@Injectable()
export class ProofOfWork {
  constructor(@Inject(LIMIT_KV) private readonly kv: Kv) {}

  async issue(): Promise<CaptchaChallenge> {
    const challenge = randomBytes(16).toString('hex');
    await this.kv.set(`pow:${challenge}`, String(POW_DIFFICULTY), CHALLENGE_TTL_MS);
    return { challenge, difficulty: POW_DIFFICULTY };
  }

  /** Checks `challenge:nonce`; the challenge is spent whether or not the nonce is right. */
  async verify(response: string | undefined): Promise<boolean> {
    const match = /^([0-9a-f]{32}):(\d{1,20})$/.exec(response ?? '');
    if (!match) return false;
    const [, challenge = '', nonce = ''] = match;
    const difficulty = Number(await this.kv.take(`pow:${challenge}`));
    return difficulty > 0 && leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) >= difficulty;
  }
}

export function leadingZeroBits(hash: Buffer): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** What the client does; here for tests and as the reference. */
export function solve(challenge: string, difficulty: number): string {
  for (let nonce = 0; ; nonce++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}:${nonce}`).digest()) >= difficulty) return `${challenge}:${nonce}`;
  }
}
