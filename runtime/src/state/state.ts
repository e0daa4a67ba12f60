/**
 * Shared state of a server that runs as several instances: a small key-value store with expiry
 * and a publish/subscribe channel. In memory by default (one process: nothing is shared); Redis
 * when asked for (`--state redis://host:port/db`, `MCP_STATE_URL`, feature `redis`), always sealed
 * (features/redis/state-seal.ts: values and messages encrypted, key names hashed: a shared store
 * needs the secret). What goes there: task snapshots (features/tasks/shared-tasks.ts), legacy
 * sessions (features/sessions/), cancellations and client answers that must reach another instance. Never
 * a secret: no upstream credential, token or request header is ever written (see the scale tests).
 */
import { EventEmitter } from "node:events";

/** Thrown when the store cannot be reached: calls that need it answer a clear error. */
export class StateUnavailableError extends Error {
  override readonly name = "StateUnavailableError";
}

/** The store behind tasks, legacy sessions and cross-instance cancellation. */
export interface StateStore {
  /** True when other instances share this store (Redis); false for the in-process store. */
  readonly shared: boolean;
  /** The value of `key`, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets `key` to `value`, expiring `ttlMs` from now. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets `key` only when it does not exist; true when it was set. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Replaces `key`'s value only while it still equals `expected` (keeping its expiry); true when replaced. */
  replace(key: string, expected: string, value: string): Promise<boolean>;
  /** Deletes `key`; true when it existed. */
  delete(key: string): Promise<boolean>;
  /** Sends `message` to every subscriber of `channel` (on every instance, this one included). */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` with each message published on `channel` from now on. */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** True while the store can be used (Redis: connected). */
  available(): boolean;
  /** Closes connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** The default store: one process's memory, with the same semantics as the shared one. */
export class MemoryStateStore implements StateStore {
  readonly shared = false;
  private readonly values = new Map<string, { value: string; expires: number }>();
  private readonly channels = new EventEmitter();

  constructor(private readonly now: () => number = Date.now) {
    this.channels.setMaxListeners(0);
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(key)?.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.sweep();
    this.values.set(key, { value, expires: this.now() + Math.max(1, ttlMs) });
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async replace(key: string, expected: string, value: string): Promise<boolean> {
    const entry = this.live(key);
    if (!entry || entry.value !== expected) return false;
    entry.value = value;
    return true;
  }

  async delete(key: string): Promise<boolean> {
    return this.live(key) !== undefined && this.values.delete(key);
  }

  async publish(channel: string, message: string): Promise<void> {
    // Asynchronous like a network hop, so a publisher never re-enters itself.
    queueMicrotask(() => this.channels.emit(channel, message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    this.channels.on(channel, listener);
  }

  available(): boolean {
    return true;
  }

  async close(): Promise<void> {
    this.channels.removeAllListeners();
  }

  private live(key: string): { value: string; expires: number } | undefined {
    const entry = this.values.get(key);
    if (entry && entry.expires <= this.now()) {
      this.values.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops expired entries now and then, so keys nobody reads again do not pile up. */
  private sweep(): void {
    if (this.values.size < 1024 || this.values.size % 256 !== 0) return;
    const now = this.now();
    for (const [key, entry] of this.values) if (entry.expires <= now) this.values.delete(key);
  }
}
