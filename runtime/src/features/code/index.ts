/**
 * Feature `code`: the code surface (`search_operations`, `describe_operation`, `execute_code`), where
 * the model writes a script that calls the API's operations inside a QuickJS sandbox. Builds on the
 * search feature's finding tools.
 */
import type { Feature, FeatureContext } from "../../cli/features.js";
import { integerFlagOrEnv } from "../../cli/settings.js";
import { SearchMetaTools } from "../search/meta-tools.js";
import { DEFAULT_CODE_LIMITS, type CodeLimits } from "./code-mode.js";
import { executeCodeTool, MAX_CONCURRENT_CODE_RUNS } from "./code-host.js";
import { UpstreamQueue } from "../../upstream/queue.js";

const MIB = 1024 * 1024;

export const code: Feature = {
  name: "code",
  flags: {
    "code-timeout": { type: "string" },
    "code-memory": { type: "string" },
    "code-max-calls": { type: "string" },
    "code-max-result": { type: "string" },
  },
  usage: `  --surface code     search_operations, describe_operation, execute_code
  --code-timeout MS  code mode: wall time of one execute_code run (env MCP_CODE_TIMEOUT_MS,
                     default ${DEFAULT_CODE_LIMITS.timeoutMs})
  --code-memory MB   code mode: sandbox memory in MiB (env MCP_CODE_MEMORY_MB, default ${DEFAULT_CODE_LIMITS.memoryBytes / MIB}, min 16)
  --code-max-calls N code mode: api calls per run (env MCP_CODE_MAX_CALLS, default ${DEFAULT_CODE_LIMITS.maxCalls})
  --code-max-result BYTES
                     code mode: bytes of the returned JSON, and of the logs (env
                     MCP_CODE_MAX_RESULT_BYTES, default ${DEFAULT_CODE_LIMITS.maxResultBytes})
`,
  plugs(context) {
    const limits = codeLimits(context.flags, context.env);
    // One bound on the runs at once for the whole server, whatever surfaces its clients are served.
    const runs = new UpstreamQueue(MAX_CONCURRENT_CODE_RUNS);
    return {
      surfaces: {
        code: (meta) => new SearchMetaTools(meta, "code", executeCodeTool(meta.operations.names, limits, runs)),
      },
    };
  },
};

/** Code-mode limits from flags, else the environment, else the defaults (see code-mode.ts). */
export function codeLimits(flags: FeatureContext["flags"], env: NodeJS.ProcessEnv): CodeLimits {
  const pick = (flag: string, envName: string, min: number, max: number, fallback: number): number =>
    integerFlagOrEnv(`--${flag}`, flags[flag] as string | undefined, env, envName, min, max) ?? fallback;
  return {
    timeoutMs: pick("code-timeout", "MCP_CODE_TIMEOUT_MS", 100, 600_000, DEFAULT_CODE_LIMITS.timeoutMs),
    memoryBytes: pick("code-memory", "MCP_CODE_MEMORY_MB", 16, 2_048, DEFAULT_CODE_LIMITS.memoryBytes / MIB) * MIB,
    maxCalls: pick("code-max-calls", "MCP_CODE_MAX_CALLS", 1, 10_000, DEFAULT_CODE_LIMITS.maxCalls),
    maxResultBytes: pick(
      "code-max-result",
      "MCP_CODE_MAX_RESULT_BYTES",
      1_000,
      100_000_000,
      DEFAULT_CODE_LIMITS.maxResultBytes,
    ),
  };
}
