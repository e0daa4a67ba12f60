/**
 * Single use: an id is claimed once, and a second claim of it fails until the id's lifetime has
 * passed (after which the state that carried it is expired anyway). In the state store when the
 * server has one (every instance sharing Redis sees the claim), else in this process's memory.
 */
import { createHash } from "node:crypto";
import type { StateStore } from "../../state/state.js";

/** Ids claimed at most once within `ttlMs`. */
export class UsedOnce {
  /** Claimed ids and when they may be forgotten (without a store). */
  private readonly claimed = new Map<string, number>();

  constructor(
    private readonly store: StateStore | undefined,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True the first time `id` is claimed; false when it was already. */
  async claim(id: string): Promise<boolean> {
    // Stored as a digest: the key says nothing of the id.
    const key = `once:${createHash("sha256").update(id).digest("base64url")}`;
    if (this.store) return this.store.create(key, "1", this.ttlMs);
    this.forgetExpired();
    if (this.claimed.has(key)) return false;
    this.claimed.set(key, this.now() + this.ttlMs);
    return true;
  }

  private forgetExpired(): void {
    const now = this.now();
    // Insertion order is expiry order: stop at the first id still alive.
    for (const [key, until] of this.claimed) {
      if (until > now) break;
      this.claimed.delete(key);
    }
  }
}
