/**
 * `--confirm-destructive`: before a destructive tool (annotation `destructiveHint`) calls the
 * upstream API, the user confirms; a call from an `execute_code` script is refused (a script
 * cannot ask the user, and must not make them answer one prompt per loop iteration). Modern clients get an `input_required` elicitation whose
 * sealed state holds a digest of the exact arguments (no replay for other arguments) and a random id that the accepted answer uses up (no replay of
 * the same request: once.ts); legacy
 * clients that declared elicitation get an `elicitation/create` request; others are refused. The
 * prompt shows what will be done: the method, the filled path and the arguments.
 */
import { createHash, randomBytes } from "node:crypto";
import type { RequestTools } from "../../api/extensions.js";
import type { InputRequiredResult, CallToolResult } from "../../api/mcp-types.js";
import { textResult } from "../../api/tool-outcome.js";
import type { ToolDefinition } from "../../api/types.js";
import { getOwn, isRecord } from "../../protocol/own.js";
import { serializePathParameter } from "../../upstream/serialize.js";
import type { CallGate } from "../../server/call-slots.js";
import type { StateStore } from "../../state/state.js";
import { DEFAULT_STATE_TTL_MS } from "../input-requests/state-sealer.js";
import { UsedOnce } from "./once.js";

/** Argument and parameter names whose values are never shown in a prompt (they may be credentials). */
const SECRET_NAME = /authori[sz]ation|cookie|token|secret|passw|api[-_]?key|credential|private[-_]?key|signature/i;
/** Most characters of the path, and of the arguments, a prompt shows. */
const MAX_SHOWN_CHARS = 500;

/**
 * The confirmation gate: a tool the spec marks `x-mcp-confirm` always, and with
 * `--confirm-destructive` (`destructive` true) every destructive tool, pass once the user confirmed.
 */
export function confirmationGate(destructive: boolean): CallGate {
  return async (tool, args, tools, call) => {
    if (!tool.confirm && !(destructive && tool.annotations?.destructiveHint)) return undefined;
    if (call.fromCode)
      return textResult(
        `${tool.name} needs the user's confirmation (${tool.confirm ? "x-mcp-confirm" : "--confirm-destructive"}), which code cannot ask for: it is not run from execute_code.`,
        true,
      );
    return confirmDestructiveCall(tool, args, tools, call.modern, call.state);
  };
}

/** The gate of `--confirm-destructive`: destructive calls (and those marked `x-mcp-confirm`) pass once the user confirmed them. */
export const confirmDestructive: CallGate = confirmationGate(true);

/** Ids of accepted confirmations, in this process (used when the server has no state store). */
const usedHere = new UsedOnce(undefined, DEFAULT_STATE_TTL_MS);

/** Undefined when the user confirmed these exact arguments; else the result to answer with. */
async function confirmDestructiveCall(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  tools: RequestTools,
  modern: boolean,
  store: StateStore | undefined,
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
    return accepted(await tools.clientRequest("elicitation/create", confirmationRequest(tool, args)))
      ? undefined
      : declined();
  }
  const digest = createHash("sha256").update(canonicalJson(args)).digest("base64url");
  const state = tools.state as { confirm?: string; once?: string } | undefined;
  const response = tools.inputResponses.confirm;
  if (state?.confirm === digest && typeof state.once === "string" && response) {
    if (!accepted(response)) return declined();
    // The answer is good for its one request: a replay of it (same state) is asked again.
    const used = store ? new UsedOnce(store, DEFAULT_STATE_TTL_MS) : usedHere;
    if (await used.claim(`confirm:${state.once}`)) return undefined;
  }
  return tools.inputRequired(
    { confirm: { method: "elicitation/create", params: confirmationRequest(tool, args) } },
    { confirm: digest, once: randomBytes(16).toString("base64url") },
  );
}

function accepted(answer: Record<string, unknown>): boolean {
  return answer.action === "accept" && isRecord(answer.content) && answer.content.confirm === true;
}

/** The elicitation asking the user to confirm a destructive call. */
function confirmationRequest(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  return {
    message: `Confirm ${tool.title ?? tool.name}: ${describeCall(tool, args)}. This may not be reversible.`,
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: "Yes, do it" } },
      required: ["confirm"],
    },
  };
}

/**
 * The call as the user should see it: `DELETE /pets/42 with arguments {"petId":42}`: the path
 * filled as it will be sent, the arguments as JSON with the values of credential-like names
 * hidden, non-ASCII and control characters escaped (no direction overrides), each part clipped.
 */
export function describeCall(tool: ToolDefinition, args: Record<string, unknown>): string {
  // A query written into the template (`/search#format=sdk`) is not part of the path shown.
  let path = tool.http.path.replace(/[#?].*$/s, "");
  const hidden = new Set<string>();
  for (const binding of tool.http.parameters) {
    if (binding.in === "cookie" || SECRET_NAME.test(binding.name)) hidden.add(binding.argument);
    const value = binding.in === "path" ? getOwn(args, binding.argument) : undefined;
    if (value === undefined) continue;
    try {
      path = path.split(`{${binding.name}}`).join(serializePathParameter(binding, value));
    } catch {
      // A value that cannot be sent: the call fails after the confirmation anyway; the template stays.
    }
  }
  const json = JSON.stringify(args, (key, value: unknown) =>
    key !== "" && (hidden.has(key) || SECRET_NAME.test(key)) ? "***" : value,
  );
  const shown = Object.keys(args).length === 0 ? "no arguments" : `arguments ${clip(escaped(json))}`;
  return `${tool.http.method.toUpperCase()} ${clip(escaped(path))} with ${shown}`;
}

/** Characters outside printable ASCII as `\uXXXX`. */
function escaped(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function clip(text: string): string {
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}… (${text.length} characters)` : text;
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
