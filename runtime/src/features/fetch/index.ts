/**
 * Feature `fetch`: the server on platforms that serve Web-standard fetch events instead of
 * node:http (Cloudflare Workers, Deno, Bun, AWS Lambda): the MCP endpoint as a
 * `(Request) => Promise<Response>` handler (fetch-handler.ts), upstream calls through the
 * platform's `fetch` (fetch-client.ts), schemas validated without code generation
 * (portable-validator.ts) and data/ files read from the bundle (data-files.ts). A target's entry file calls {@link serveFetch}; the Node
 * entry does not plug it in, so a Node server keeps got.
 */
import type { Feature } from "../../cli/features.js";
import { buildServer, parseFlags, type MainOptions } from "../../cli/main.js";
import type { ServerInfo, ToolDefinition } from "../../api/types.js";
import type { ToolSource } from "../../data/tool-data.js";
import { createStderrLogger } from "../../protocol/logger.js";
import { listOption } from "../../cli/settings.js";
import { nonEmpty } from "../../upstream/server-url.js";
import { fetchClient } from "./fetch-client.js";
import { compilePortable } from "./portable-validator.js";
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from "./fetch-handler.js";

export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from "./fetch-handler.js";
export { fetchClient } from "./fetch-client.js";
export { bundledData, type BundledData } from "./data-files.js";

/** The feature as `main`'s features list takes it: upstream calls through the platform's fetch. */
export const fetchFeature: Feature = {
  name: "fetch",
  plugs: () => ({ upstreamClient: fetchClient, compileSchema: compilePortable }),
};

/** What a target's entry passes besides the server's info and tools. */
export interface ServeFetchOptions extends MainOptions {
  /** The settings: the platform's environment variables and secrets, read as a Node server reads `process.env`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The endpoint's options (the Host check by default from MCP_ALLOWED_HOSTS). */
  handler?: FetchHandlerOptions;
  /**
   * The upstream client: the platform's `fetch` (default), or got, the Node server's client, on a
   * runtime whose Node compatibility runs it (Bun, measured: docs/guide/deploying/bun.md).
   */
  upstream?: "fetch" | "got";
}

/**
 * The fetch handler of a generated server: the server is built from `env` on the first request
 * (Workers give the environment to the handler, not at start), then serves every request of this
 * instance. A bad setting answers 500 with its message on every request and is logged.
 */
export function serveFetch(
  info: ServerInfo,
  tools: readonly ToolDefinition[] | ToolSource,
  options: ServeFetchOptions,
): FetchHandler {
  let handler: Promise<FetchHandler> | undefined;
  const start = async (): Promise<FetchHandler> => {
    const env = { ...options.env } as NodeJS.ProcessEnv;
    const logger = createStderrLogger(info.name);
    // Without the fetch feature's plug the server keeps its default client, got.
    const features = [...(options.upstream === "got" ? [] : [fetchFeature]), ...(options.features ?? [])];
    const flags = parseFlags([], env);
    const { server } = await buildServer(info, tools, flags, { ...options, features }, env, logger);
    return createFetchHandler(server, { logger, ...handlerSettings(env), ...options.handler });
  };
  return async (request) => {
    try {
      return await (
        await (handler ??= start())
      )(request);
    } catch (error) {
      const message = `${info.name}: ${error instanceof Error ? error.message : String(error)}`;
      console.error(message);
      return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32603, message } }, { status: 500 });
    }
  };
}

/** The endpoint's settings from the environment: MCP_ALLOWED_HOSTS as on Node ("*" or unset: no Host check). */
function handlerSettings(env: NodeJS.ProcessEnv): FetchHandlerOptions {
  const hosts = nonEmpty(env.MCP_ALLOWED_HOSTS);
  return hosts && hosts !== "*" ? { allowedHosts: listOption(hosts) } : {};
}
