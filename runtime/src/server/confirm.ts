/**
 * `--confirm-destructive`: before a destructive tool (annotation `destructiveHint`) calls the
 * upstream API, the user confirms. Modern clients get an `input_required` elicitation whose
 * sealed state holds a digest of the exact arguments (no replay for other arguments); legacy
 * clients that declared elicitation get an `elicitation/create` request; others are refused.
 */
import { createHash } from "node:crypto";
import type { RequestTools } from "../api/extensions.js";
import type { InputRequiredResult, CallToolResult } from "../api/mcp-types.js";
import { textResult } from "../api/tool-outcome.js";
import type { ToolDefinition } from "../api/types.js";
import { isRecord } from "../protocol/own.js";

/** Undefined when the user confirmed these exact arguments; else the result to answer with. */
export async function confirmDestructiveCall(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  tools: RequestTools,
  modern: boolean,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
  const declined = (): CallToolResult =>
    textResult(`Not done: the user did not confirm ${tool.name} (${operation}).`, true);
  if (!modern) {
    if (!isRecord(tools.clientCapabilities.elicitation)) {
      return textResult(
        `Tool ${tool.name} (${operation}) is destructive and this server requires the user's confirmation, but this client cannot be asked (no elicitation capability).`,
        true,
      );
    }
    return accepted(await tools.clientRequest("elicitation/create", confirmationRequest(tool, operation)))
      ? undefined
      : declined();
  }
  const digest = createHash("sha256").update(canonicalJson(args)).digest("base64url");
  const state = tools.state as { confirm?: string } | undefined;
  const response = tools.inputResponses.confirm;
  if (state?.confirm === digest && response) return accepted(response) ? undefined : declined();
  return tools.inputRequired(
    { confirm: { method: "elicitation/create", params: confirmationRequest(tool, operation) } },
    { confirm: digest },
  );
}

function accepted(answer: Record<string, unknown>): boolean {
  return answer.action === "accept" && isRecord(answer.content) && answer.content.confirm === true;
}

/** The elicitation asking the user to confirm a destructive call. */
function confirmationRequest(tool: ToolDefinition, operation: string): Record<string, unknown> {
  return {
    message: `Confirm ${tool.title ?? tool.name}: ${operation} with the given arguments. This may not be reversible.`,
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: "Yes, do it" } },
      required: ["confirm"],
    },
  };
}

/** JSON with object keys sorted at every level: a stable digest input. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}
