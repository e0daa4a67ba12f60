/**
 * Feature `sessions`: legacy-era HTTP sessions (`--sessions`, `Mcp-Session-Id`) for clients of
 * revisions up to 2025-11-25 that expect them; kept in the state store (with feature `redis`,
 * any instance behind a load balancer serves them). Without it, HTTP is stateless.
 */
import type { Feature } from "../../cli/features.js";
import { httpSessions } from "./http-sessions.js";

export { httpSessions };

export const sessions: Feature = {
  name: "sessions",
  flags: { sessions: { type: "boolean" } },
  usage: `  --sessions         HTTP: legacy-era sessions (Mcp-Session-Id); default stateless
`,
  plugs: ({ flags }) => (flags.sessions ? { httpSessions } : {}),
};
