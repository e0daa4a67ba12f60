// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The bridge between code mode (code-mode.ts) and the server: an operation's tool result as the
 * outcome `api.<tool>()` resolves or rejects with inside the sandbox, and a sandbox run as the
 * `execute_code` tool result.
 */
import type { CodeHost, CodeRunResult } from "./code-mode.js";
import type { InputRequiredResult } from "./extensions.js";
import type { CallToolResult } from "./mcp-types.js";
import { outcomeText, readToolResult, renderToolResult, valueOutcome } from "./tool-outcome.js";

type HostOutcome = Awaited<ReturnType<CodeHost["call"]>>;

/** `Upstream HTTP 404 Not Found for GET /pets/9: {"message":…}` (result.ts): status and body excerpt. */
const UPSTREAM_ERROR = /^Upstream HTTP (\d{3})[^:]*?(?:: ([\s\S]*))?$/;

/**
 * What `api.<tool>(args)` gets for an operation's result: its structured content (else its text)
 * on success; on an error result its message, with the upstream status and body when there was
 * an answer. An operation that would ask the user first (a hook's `input_required`) is not run from
 * code: a script cannot answer, so it gets an error (destructive calls under `--confirm-destructive`
 * are refused earlier, in tool-call.ts, in every era).
 */
export function operationOutcome(name: string, result: CallToolResult | InputRequiredResult): HostOutcome {
  if ("resultType" in result && result.resultType === "input_required") {
    return { ok: false, error: { message: `${name} asks the user for input before it runs, which code cannot do.` } };
  }
  const outcome = readToolResult(result as CallToolResult);
  const text = outcomeText(outcome);
  if (outcome.ok) return { ok: true, value: outcome.value ?? text };
  const upstream = UPSTREAM_ERROR.exec(text);
  return {
    ok: false,
    error: {
      message: text,
      ...(upstream ? { status: Number(upstream[1]), ...(upstream[2] ? { body: upstream[2] } : {}) } : {}),
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
