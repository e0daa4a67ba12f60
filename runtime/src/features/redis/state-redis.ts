/**
 * The Redis state store (ioredis), loaded by the redis feature (index.ts) for a `redis://` URL. Two
 * connections: one for commands (no offline queue, a short command timeout: while Redis is down,
 * calls that need it fail at once with StateUnavailableError instead of hanging) and one for
 * subscriptions (which ioredis renews after every reconnection). Both reconnect by themselves,
 * so the server recovers when Redis comes back. Keys and channels carry a prefix per server.
 */
import type { Redis as RedisClient, RedisOptions } from "ioredis";
import { StateUnavailableError, type StateStore } from "../../state/state.js";

/** Longest wait for one Redis command before the call that needed it fails. */
const COMMAND_TIMEOUT_MS = 2_000;
/** How long start-up waits for a first connection (the server starts either way). */
const CONNECT_WAIT_MS = 3_000;

/** Replaces a value only while it equals the expected one, keeping its expiry (Redis ≥ 6). */
const REPLACE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') return 1 end return 0";

export class RedisStateStore implements StateStore {
  readonly shared = true;
  private readonly listeners = new Map<string, Set<(message: string) => void>>();

  private constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly prefix: string,
  ) {
    subscriber.on("message", (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(message);
    });
  }

  /**
   * Connects to `url` (waiting up to a few seconds for the first connection; a server whose Redis
   * is down still starts, and its stateful calls fail until Redis is reachable). `onStatus` hears
   * each change between reachable and unreachable, never the URL (it may hold a password).
   */
  static async connect(
    url: string,
    options: { prefix?: string; onStatus?: (message: string) => void } = {},
  ): Promise<RedisStateStore> {
    const { Redis } = await import("ioredis");
    const common: RedisOptions = {
      // Reconnect forever, at most every 2 s.
      retryStrategy: (times) => Math.min(times * 100, 2_000),
      connectTimeout: CONNECT_WAIT_MS,
    };
    const client = new Redis(url, {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
    });
    const subscriber = new Redis(url, { ...common, autoResubscribe: true });
    let up: boolean | undefined;
    const report = (reachable: boolean, detail?: string): void => {
      if (up === reachable) return;
      up = reachable;
      options.onStatus?.(
        reachable
          ? "state store (Redis) connected"
          : `state store (Redis) unreachable${detail ? ` (${detail})` : ""}; retrying`,
      );
    };
    client.on("ready", () => report(true));
    client.on("error", (error: Error & { code?: string }) => report(false, error.code ?? error.name));
    client.on("end", () => report(false, "closed"));
    subscriber.on("error", () => {}); // reported through the command connection
    const ready = new Promise<void>((resolve) => {
      client.once("ready", resolve);
      setTimeout(resolve, CONNECT_WAIT_MS).unref();
    });
    await ready;
    if (client.status !== "ready") report(false, "no connection yet");
    return new RedisStateStore(client, subscriber, options.prefix ?? "mcp:");
  }

  available(): boolean {
    return this.client.status === "ready";
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.run(() => this.client.get(this.prefix + key))) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run(() => this.client.set(this.prefix + key, value, "PX", Math.max(1, Math.ceil(ttlMs))));
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (
      (await this.run(() => this.client.set(this.prefix + key, value, "PX", Math.max(1, Math.ceil(ttlMs)), "NX"))) ===
      "OK"
    );
  }

  async replace(key: string, expected: string, value: string): Promise<boolean> {
    return (await this.run(() => this.client.eval(REPLACE_SCRIPT, 1, this.prefix + key, expected, value))) === 1;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.run(() => this.client.del(this.prefix + key))) > 0;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.run(() => this.client.publish(this.prefix + channel, message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const name = this.prefix + channel;
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
      // Queued until connected, and renewed after reconnections (autoResubscribe).
      void this.subscriber.subscribe(name).catch(() => {});
    }
    set.add(listener);
  }

  /** Sends what is queued (QUIT waits for earlier commands' replies, at most 1 s), then disconnects. */
  async close(): Promise<void> {
    this.listeners.clear();
    if (this.client.status === "ready") {
      await Promise.race([
        this.client.quit().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
      ]);
    }
    this.client.disconnect();
    this.subscriber.disconnect();
  }

  /** Runs one command; any failure to reach Redis becomes StateUnavailableError. */
  private async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.client.status !== "ready") throw new StateUnavailableError("the state store (Redis) is unreachable");
    try {
      return await command();
    } catch (error) {
      const code = (error as { code?: string }).code;
      const reason =
        error instanceof Error && error.name === "ReplyError"
          ? "it refused the command"
          : (code ?? "no answer in time");
      throw new StateUnavailableError(`the state store (Redis) is unavailable: ${reason}`);
    }
  }
}
