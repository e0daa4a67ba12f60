/**
 * The state store's contract: a small key-value store with expiry and a publish/subscribe channel.
 * In memory (feature `state`, for the features that keep state) or Redis, shared by several
 * instances (`--state`, feature `redis`, always sealed). What goes there: legacy sessions, per-user
 * tokens, task snapshots, cancellations and client answers that must reach another instance. Never
 * a secret in clear: no upstream credential, token or request header (see the scale tests).
 */

/** Thrown when the store cannot be reached: calls that need it answer a clear error. */
export class StateUnavailableError extends Error {
  override readonly name = "StateUnavailableError";
  /** Stable across versions: custom code may branch on it. */
  readonly code = "ERR_STATE_UNAVAILABLE";
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
