/**
 * Token buckets: `limit` requests per `windowMs`, refilled continuously (a burst of `limit`, then one
 * every windowMs/limit). In this process's memory, or shared by every instance through the state
 * store (Redis) as GCRA, the token bucket's one-number form (the "theoretical arrival time"),
 * updated by compare-and-set so that two instances never both spend the last token.
 */
import type { StateStore } from "../../state/state.js";
import type { Rate } from "../../cli/settings.js";

export type { Rate };

/** The answer of a bucket: allowed, or refused with the wait until a token is there. */
export type Take = { ok: true } | { ok: false; retryAfterMs: number };

/** Buckets by key. */
export interface Buckets {
  take(key: string, rate: Rate): Promise<Take> | Take;
}

/** Most buckets kept in memory before full ones are dropped (a full bucket is the same as none). */
const MAX_MEMORY_BUCKETS = 10_000;

/** Token buckets in this process's memory. */
export class MemoryBuckets implements Buckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, rate: Rate): Take {
    const now = this.now();
    const perMs = rate.limit / rate.windowMs;
    const bucket = this.buckets.get(key) ?? { tokens: rate.limit, at: now };
    bucket.tokens = Math.min(rate.limit, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= MAX_MEMORY_BUCKETS) this.dropFull(rate);
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / perMs) };
  }

  /** Drops the buckets that have refilled (judged at the rate of the caller; rates differ little). */
  private dropFull(rate: Rate): void {
    const now = this.now();
    for (const [key, bucket] of this.buckets)
      if (bucket.tokens + ((now - bucket.at) * rate.limit) / rate.windowMs >= rate.limit) this.buckets.delete(key);
  }
}

/** Compare-and-set attempts before a contended take is refused (each is one round trip). */
const MAX_ATTEMPTS = 8;
/**
 * How long a shared bucket's key lives from its creation (the store keeps a key's expiry when its
 * value is replaced): at least an hour, so a busy subject's bucket is renewed — found full — at
 * most once an hour; idle subjects' keys go away by themselves.
 */
const SHARED_KEY_MS = 3_600_000;

/** Token buckets shared through the state store, as GCRA; StateUnavailableError propagates (the caller fails open). */
export class SharedBuckets implements Buckets {
  /** The last take of each key in flight here: takes of one key run one at a time per instance. */
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: StateStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes a token. This instance's takes of a key wait for each other, so compare-and-set races only
   * against the other instances (a burst of one subject would otherwise race against itself).
   */
  take(key: string, rate: Rate): Promise<Take> {
    const before = this.pending.get(key) ?? Promise.resolve();
    const taken = before.then(
      () => this.takeNow(key, rate),
      () => this.takeNow(key, rate),
    );
    this.pending.set(key, taken);
    void taken.then(
      () => this.pending.get(key) === taken && this.pending.delete(key),
      () => this.pending.get(key) === taken && this.pending.delete(key),
    );
    return taken;
  }

  private async takeNow(key: string, rate: Rate): Promise<Take> {
    const interval = rate.windowMs / rate.limit;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.now();
      const stored = await this.store.get(key);
      const arrival = stored === undefined ? now : Math.max(Number(stored) || now, now);
      const next = arrival + interval;
      // A full bucket is `next - now == interval`; an empty one lets `next` run a window ahead.
      if (next - now > rate.windowMs) return { ok: false, retryAfterMs: Math.ceil(next - now - rate.windowMs) };
      const written =
        stored === undefined
          ? await this.store.create(key, String(next), Math.max(SHARED_KEY_MS, rate.windowMs * 2))
          : await this.store.replace(key, stored, String(next));
      if (written) return { ok: true };
    }
    // Every attempt lost to another instance: the bucket is that busy, so the request waits.
    return { ok: false, retryAfterMs: Math.ceil(interval) };
  }
}
