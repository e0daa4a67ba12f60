/**
 * Feature `redis`: shared state for several instances behind a load balancer (`--state
 * redis://…`, `MCP_STATE_URL`): legacy sessions, tasks (with feature `tasks`) and cancellations
 * reach every instance. ioredis loads only when a store is opened.
 */
import type { Feature } from "../../cli/features.js";
import { StoreCluster } from "./cluster.js";
import { MIN_STATE_SECRET_CHARS, SealedStateStore } from "./state-seal.js";

export const redis: Feature = {
  name: "redis",
  usage: `  --state URL        HTTP: shared state for several instances behind a load balancer:
                     redis://[:password@]host:port/db (env MCP_STATE_URL; default: this
                     process's memory). Tasks, legacy sessions and cancellations then reach
                     every instance; no credential is ever stored there. Needs MCP_STATE_SECRET
                     (at least 32 characters, the same on every instance): it encrypts what is stored
`,
  plugs: () => ({
    async openState(url, options) {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
      if (scheme !== "redis" && scheme !== "rediss")
        throw new Error(`unsupported state store URL scheme '${scheme ?? ""}': use redis://host:port/db or rediss://…`);
      if ((options.secret ?? "").length < MIN_STATE_SECRET_CHARS)
        throw new Error(
          `a Redis state store needs MCP_STATE_SECRET (at least ${MIN_STATE_SECRET_CHARS} characters, the same on every instance): it encrypts what is stored there`,
        );
      const { RedisStateStore } = await import("./state-redis.js");
      return new SealedStateStore(await RedisStateStore.connect(url, options), options.secret!, options.onInvalid);
    },
    cluster: (store, logger) => new StoreCluster(store, logger),
  }),
};
