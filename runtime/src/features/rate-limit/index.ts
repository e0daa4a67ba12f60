/**
 * Feature `rate-limit`: inbound token buckets per subject and per tool (`--rate-limit`,
 * `--tool-rate-limit`), in memory, or shared by every instance when the state store is (`--state
 * redis://…`, feature redis). See admission.ts for who a subject is and what a refused request gets.
 */
import type { Feature } from "../../cli/features.js";
import { nonEmpty } from "../../cli/settings.js";
import { RateAdmission, type RateLimits } from "./admission.js";
import { parseRate } from "../../cli/settings.js";
import { MemoryBuckets, SharedBuckets, type Rate } from "./buckets.js";

/** The limits the flags and environment set; undefined when none is. */
export function rateLimits(
  flags: Readonly<Record<string, string | boolean | string[] | undefined>>,
  env: NodeJS.ProcessEnv,
): RateLimits | undefined {
  const subject = nonEmpty(flags["rate-limit"] as string | undefined) ?? nonEmpty(env.MCP_RATE_LIMIT);
  const toolEntries = (flags["tool-rate-limit"] as string[] | undefined) ?? [];
  const fromEnv = nonEmpty(env.MCP_TOOL_RATE_LIMIT);
  const entries = toolEntries.length > 0 ? toolEntries : fromEnv ? fromEnv.split(",") : [];
  let perTool: Rate | undefined;
  const tools: Record<string, Rate> = {};
  for (const entry of entries.map((e) => e.trim()).filter(Boolean)) {
    const at = entry.indexOf("=");
    if (at < 0) perTool = parseRate(entry, "--tool-rate-limit");
    else tools[entry.slice(0, at).trim()] = parseRate(entry.slice(at + 1), `--tool-rate-limit ${entry.slice(0, at)}`);
  }
  if (subject === undefined && perTool === undefined && Object.keys(tools).length === 0) return undefined;
  return {
    perSubject: subject === undefined ? undefined : parseRate(subject, "--rate-limit"),
    perTool,
    tools,
    userHeader: nonEmpty(flags["trust-user-header"] as string | undefined),
  };
}

export const rateLimit: Feature = {
  name: "rate-limit",
  flags: { "rate-limit": { type: "string" }, "tool-rate-limit": { type: "string", multiple: true } },
  usage: `  --rate-limit RATE  requests per subject (OAuth subject, --trust-user-header user, else
                     client address; stdio: its one client), e.g. 600/min
                     (env MCP_RATE_LIMIT); shared by every instance with --state redis://…
  --tool-rate-limit [TOOL=]RATE
                     tools/call per subject and tool (repeatable; TOOL= for one tool), e.g.
                     60/min (env MCP_TOOL_RATE_LIMIT, comma-separated). A refused tools/call
                     is a tool error saying when to retry; other methods get error 429
`,
  plugs({ flags, env }) {
    const limits = rateLimits(flags, env);
    if (!limits) return {};
    return {
      admission: ({ state, logger }) =>
        new RateAdmission(limits, state?.shared ? new SharedBuckets(state) : new MemoryBuckets(), logger),
    };
  },
};
