/**
 * The bridge between code mode (code-mode.ts) and the server: `execute_code` as the code surface's
 * tool that runs operations, each `api.<tool>()` of the script answered through the server's one
 * call path, and a sandbox run as the tool's result.
 */
import {
  DEFAULT_CODE_LIMITS,
  EXECUTE_CODE_TOOL,
  executeCode,
  type CodeHost,
  type CodeLimits,
  type CodeRunResult,
} from "./code-mode.js";
import type { CallToolResult, ListedTool } from "../../api/mcp-types.js";
import type { ObjectJsonSchema } from "../../api/types.js";
import { operationOutcome, renderToolResult, valueOutcome } from "../../api/tool-outcome.js";
import type { RunningTool } from "../search/meta-tools.js";
import { UpstreamQueue } from "../../upstream/queue.js";
import { Cancellation } from "../../protocol/cancellation.js";

/** `execute_code`, as `tools/list` shows it. */
export const EXECUTE_CODE_LISTED: ListedTool = {
  name: EXECUTE_CODE_TOOL.name,
  title: "Run code against the API",
  description: EXECUTE_CODE_TOOL.description,
  inputSchema: EXECUTE_CODE_TOOL.inputSchema as ObjectJsonSchema,
  annotations: { openWorldHint: true },
};

/**
 * Most `execute_code` runs at once in one server: each is a worker thread with its own sandbox
 * memory (64 MiB by default), so a client sending a hundred at once must not start a hundred; the
 * others wait in FIFO order (the same bounded queue as upstream calls).
 */
export const MAX_CONCURRENT_CODE_RUNS = 4;

/**
 * `execute_code`: the script's `api.<tool>()` calls run through `run`, the same path as
 * call_operation (validation, credentials, cancellation), and only for operations the caller may
 * see; an operation that needs the user's confirmation is refused (a script cannot ask the user).
 * `runs` bounds the runs at once (share one queue between the surfaces of a server). QuickJS loads
 * on the first run (code-mode.ts imports none of it at start).
 */
export function executeCodeTool(
  operationNames: ReadonlySet<string>,
  limits: CodeLimits = DEFAULT_CODE_LIMITS,
  runs: UpstreamQueue = new UpstreamQueue(MAX_CONCURRENT_CODE_RUNS),
): RunningTool {
  return {
    tool: EXECUTE_CODE_LISTED,
    async call(args, allowed, run, signal) {
      const host: CodeHost = {
        toolNames: [...operationNames].filter(allowed),
        call: async (operation, operationArgs, callSignal) =>
          allowed(operation)
            ? operationOutcome(operation, await run(operation, operationArgs, { signal: callSignal, fromCode: true }))
            : { ok: false, error: { message: `Unknown operation '${operation}'.` } },
      };
      const outcome = await runs.run(
        () => executeCode(String(args.code), host, limits, signal ?? new AbortController().signal),
        signal && new Cancellation(signal),
      );
      return codeToolResult(outcome);
    },
  };
}

/** The `execute_code` result: `{ result, logs, calls }` as structured content, or an error result naming the limit or failure. */
export function codeToolResult(run: CodeRunResult): CallToolResult {
  if (run.ok) {
    return renderToolResult(valueOutcome({ result: run.result ?? null, logs: run.logs, calls: run.calls }));
  }
  const detail = { error: run.error, logs: run.logs, calls: run.calls };
  return renderToolResult(
    valueOutcome(
      detail,
      false,
      `execute_code failed (${run.error.kind}): ${run.error.message}\n${JSON.stringify({ logs: run.logs, calls: run.calls })}`,
    ),
  );
}
