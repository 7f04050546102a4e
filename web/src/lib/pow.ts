/**
 * The api's captcha is a proof of work (api/API.md, `is_captcha_needed`): find a decimal nonce
 * such that sha256(challenge + ":" + nonce) starts with `difficulty` zero bits, and send
 * `challenge:nonce`. SHA-256 is computed here in plain JavaScript on ASCII input: WebCrypto's
 * digest is asynchronous per call, and tens of thousands of awaits take far longer than the
 * hashes themselves.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const W = new Uint32Array(64);

/** SHA-256 of an ASCII (or Latin-1) string, as eight 32-bit words. */
export function sha256Words(text: string): Uint32Array {
  const length = text.length;
  const blocks = Math.ceil((length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  for (let i = 0; i < length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  bytes[length] = 0x80;
  const bits = length * 8;
  const view = new DataView(bytes.buffer);
  view.setUint32(bytes.length - 4, bits >>> 0);
  view.setUint32(bytes.length - 8, Math.floor(bits / 0x100000000));

  let h0 = 0x6a09e667, h1 = 0xbb67ae85, h2 = 0x3c6ef372, h3 = 0xa54ff53a;
  let h4 = 0x510e527f, h5 = 0x9b05688c, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
  for (let block = 0; block < blocks; block++) {
    const base = block * 64;
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(base + t * 4);
    for (let t = 16; t < 64; t++) {
      const w15 = W[t - 15] as number;
      const w2 = W[t - 2] as number;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[t] = ((W[t - 16] as number) + s0 + (W[t - 7] as number) + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + (K[t] as number) + (W[t] as number)) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + h) | 0;
  }
  return new Uint32Array([h0, h1, h2, h3, h4, h5, h6, h7]);
}

/** SHA-256 of an ASCII string in hex (for tests). */
export function sha256Hex(text: string): string {
  return Array.from(sha256Words(text), (w) => w.toString(16).padStart(8, '0')).join('');
}

/** Leading zero bits of a digest. */
export function leadingZeroBits(words: Uint32Array): number {
  let bits = 0;
  for (const word of words) {
    if (word === 0) {
      bits += 32;
      continue;
    }
    return bits + Math.clz32(word);
  }
  return bits;
}

/**
 * Finds the answer `challenge:nonce`, yielding to the browser every `batch` hashes so the page
 * stays responsive. Rejects with the abort error when `signal` aborts.
 */
export async function solveProofOfWork(challenge: string, difficulty: number, signal?: AbortSignal, batch = 4000): Promise<string> {
  for (let nonce = 0; ; ) {
    const end = nonce + batch;
    for (; nonce < end; nonce++) {
      if (leadingZeroBits(sha256Words(`${challenge}:${nonce}`)) >= difficulty) return `${challenge}:${nonce}`;
    }
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
