/** A small seeded PRNG (mulberry32) and pickers, so every fuzz run with the same seed is the same run. */

/** Random source for fuzzing: deterministic for a given seed. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A string of `length` characters drawn from `alphabet`. */
  text(length: number, alphabet: string): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** The seed of a fuzz run: `FUZZ_SEED` when set, else `fallback` (fixed, so CI runs are reproducible). */
export function fuzzSeed(fallback: number): number {
  const configured = Number(process.env.FUZZ_SEED);
  return Number.isInteger(configured) ? configured : fallback;
}

/** How many cases a fuzz run makes: `name` from the environment when set, else `fallback`. */
export function fuzzCount(name: string, fallback: number): number {
  const configured = Number(process.env[name]);
  return Number.isInteger(configured) && configured > 0 ? configured : fallback;
}
