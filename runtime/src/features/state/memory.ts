/** The state store of one process: the same semantics as the shared one, nothing shared. */
import { EventEmitter } from "node:events";
import type { StateStore } from "../../state/state.js";

/** The store of one process (see the module comment). */
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
