/**
 * Seeded randomness for the traffic generator: the same seed gives the same traffic on every
 * machine and Node version (only integer arithmetic and Math.log/exp/sqrt/cos, which V8
 * computes the same everywhere for the same inputs).
 */

/** splitmix32: spreads a small seed over the generator's state. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * sfc32 (Chris Doty-Humphrey's small fast counting generator): 128 bits of state, a period of at
 * least 2^32 draws from any seed, and far more in practice; enough for 100 million events of
 * some twenty draws each, where a 32-bit generator would come round again.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  constructor(seed: number) {
    const mix = splitmix32(seed);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A uniform number in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One of the items, uniformly. */
  of<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A standard normal draw (Box–Muller; the second value of each pair is kept for the next call). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** A log-normal draw with the given median and shape (sigma of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** An exponential draw with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** A new generator whose stream is independent of this one's, derived from it. */
  fork(): Random {
    return new Random(this.uint32() ^ 0x5bd1e995);
  }

  /** A random version-4 UUID, as the collector makes them. */
  uuid(): string {
    const a = this.uint32();
    const b = this.uint32();
    const c = this.uint32();
    const d = this.uint32();
    return (
      hex4(a >>> 16) +
      hex4(a & 0xffff) +
      '-' +
      hex4(b >>> 16) +
      '-' +
      hex4(0x4000 | (b & 0x0fff)) +
      '-' +
      hex4(0x8000 | (c >>> 18)) +
      '-' +
      hex4(c & 0xffff) +
      hex4(d >>> 16) +
      hex4(d & 0xffff)
    );
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Four hex digits of a 16-bit number. */
function hex4(n: number): string {
  return (HEX[n >>> 8] as string) + (HEX[n & 0xff] as string);
}

/** A fixed set of items with weights, picked in O(log n) by a binary search of the running sums. */
export class Weighted<T> {
  readonly items: readonly T[];
  private readonly sums: Float64Array;
  readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    const kept = entries.filter(([, w]) => w > 0);
    if (kept.length === 0) throw new Error('Weighted: no item with a positive weight');
    this.items = kept.map(([item]) => item);
    this.sums = new Float64Array(kept.length);
    let sum = 0;
    kept.forEach(([, w], i) => {
      sum += w;
      this.sums[i] = sum;
    });
    this.total = sum;
  }

  pick(random: Random): T {
    return this.at(random.next());
  }

  /** The item at a point u in [0, 1) of the running sums (for picks derived from a hash). */
  at(u: number): T {
    const r = u * this.total;
    let lo = 0;
    let hi = this.sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.sums[mid] as number) > r) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }

  /** The share of an item's weight in the total, by index. */
  share(index: number): number {
    const upto = this.sums[index] ?? 0;
    const before = index > 0 ? (this.sums[index - 1] ?? 0) : 0;
    return (upto - before) / this.total;
  }
}

/** Weights 1/rank^s for ranks 1..n: a Zipf-like popularity of n items. */
export function zipfWeights(n: number, s: number): number[] {
  return Array.from({ length: n }, (_, i) => 1 / Math.pow(i + 1, s));
}
