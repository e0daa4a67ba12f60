/**
 * Feature `legacy-sse`: the deprecated HTTP+SSE transport of 2024-11-05 clients (`--legacy-sse`):
 * GET `/sse` and POST `/messages` beside the Streamable HTTP endpoint.
 */
import type { Feature } from "../../cli/features.js";
import { LegacySseEndpoints } from "./sse-legacy.js";

export const legacySse: Feature = {
  name: "legacy-sse",
  flags: { "legacy-sse": { type: "boolean" } },
  usage: `  --legacy-sse       HTTP: also serve the deprecated HTTP+SSE transport (GET /sse, POST /messages)
`,
  plugs: ({ flags }) =>
    flags["legacy-sse"]
      ? { httpEndpoints: (server, receive, logger) => new LegacySseEndpoints(server, receive, logger) }
      : {},
};
