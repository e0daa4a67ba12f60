/**
 * Feature `redis`: shared state for several instances behind a load balancer (`--state
 * redis://…`, `MCP_STATE_URL`): legacy sessions, tasks (with feature `tasks`) and cancellations
 * reach every instance. ioredis loads only when a store is opened.
 */
import type { Feature } from "../../cli/features.js";
import { nonEmpty } from "../../cli/settings.js";
import type { StateStore } from "../../state/state.js";
import { StoreCluster } from "./redis-cluster.js";
import { MIN_STATE_SECRET_CHARS, SealedStateStore } from "./state-seal.js";

/** How a shared store is opened. */
export interface StateStoreOptions {
  /** The key prefix of this server. */
  prefix?: string;
  /** The secret that seals what is stored (`MCP_STATE_SECRET`, the same on every instance). */
  secret?: string | undefined;
  /** Hears connection changes. */
  onStatus?: (message: string) => void;
  /** Hears records that failed their check (tampered, or written with another secret). */
  onInvalid?: (what: string) => void;
}

/** Opens the sealed Redis store at `url`; throws for another scheme or a missing or short secret. */
export async function openState(url: string, options: StateStoreOptions): Promise<StateStore> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== "redis" && scheme !== "rediss")
    throw new Error(`unsupported state store URL scheme '${scheme ?? ""}': use redis://host:port/db or rediss://…`);
  if ((options.secret ?? "").length < MIN_STATE_SECRET_CHARS)
    throw new Error(
      `a Redis state store needs MCP_STATE_SECRET (at least ${MIN_STATE_SECRET_CHARS} characters, the same on every instance): it encrypts what is stored there`,
    );
  const { RedisStateStore } = await import("./state-redis.js");
  return new SealedStateStore(await RedisStateStore.connect(url, options), options.secret!, options.onInvalid);
}

export const redis: Feature = {
  name: "redis",
  flags: { state: { type: "string" } },
  usage: `  --state URL        HTTP: shared state for several instances behind a load balancer:
                     redis://[:password@]host:port/db (env MCP_STATE_URL; default: this
                     process's memory). Tasks, legacy sessions and cancellations then reach
                     every instance; no credential is ever stored there. Needs MCP_STATE_SECRET
                     (at least 32 characters, the same on every instance): it encrypts what is stored
`,
  async plugs({ flags, env, http, info, logger }) {
    if (flags.state !== undefined && !http)
      throw new Error("--state applies to --http only (a stdio server has one client)");
    const url = http ? (nonEmpty(flags.state as string | undefined) ?? nonEmpty(env.MCP_STATE_URL)) : undefined;
    const cluster = (store: StateStore, log: typeof logger) => new StoreCluster(store, log);
    if (url === undefined || url === "memory") return { cluster };
    // The URL may hold Redis's password: it is never logged.
    const state = await openState(url, {
      prefix: `mcp:${info.name}:`,
      secret: nonEmpty(env.MCP_STATE_SECRET),
      onStatus: (message) => (message.includes("unreachable") ? logger.warn(message) : logger.info(message)),
      onInvalid: (what) => logger.warn(`state store: ${what} failed its integrity check and was ignored`),
    });
    return { state, cluster };
  },
};
