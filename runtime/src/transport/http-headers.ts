/**
 * SEP-2243 header validation of modern (2026-07-28) HTTP requests: `MCP-Protocol-Version` equals
 * `_meta`'s version; `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}` (arguments whose schema has
 * `x-mcp-header`) mirror the body, trimmed, maybe `=?base64?…?=`-encoded. Failures: 400 + -32020.
 */
import type { IncomingHttpHeaders } from "node:http";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { META_PROTOCOL_VERSION } from "../protocol/versions.js";
import type { ObjectJsonSchema } from "../api/types.js";
import { getOwn, isRecord } from "../protocol/own.js";

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII plus space and tab: what a header value may hold before decoding. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/** Methods whose requests must carry `Mcp-Name`, and the param it mirrors. */
const NAME_PARAM: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // The tasks extension (SEP-2663): the task id, so load balancers can route to the task's instance.
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

function mismatch(message: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);
}

/** One header's value (first if repeated), or undefined when absent; `name` in lower case. */
function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** One header value trimmed and decoded from its base64 sentinel form; -32020 when malformed. */
export function decodeHeaderValue(name: string, raw: string): string {
  if (!HEADER_VALUE.test(raw)) throw mismatch(`${name} header contains invalid characters`);
  const trimmed = raw.trim();
  const sentinel = SENTINEL.exec(trimmed);
  if (!sentinel) return trimmed;
  const encoded = sentinel[1]!;
  if (!BASE64.test(encoded)) throw mismatch(`${name} header has invalid base64`);
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  if (decoded.includes("\uFFFD")) throw mismatch(`${name} header is not valid UTF-8`);
  return decoded;
}

/** The header form of one argument value (string as-is, integer decimal, boolean literal). */
function matches(value: unknown, header: string): boolean {
  if (typeof value === "string") return value === header;
  if (typeof value === "boolean") return header === String(value);
  if (typeof value === "number") return header.trim() !== "" && Number(header) === value;
  return false;
}

/** Validates the headers of one modern request against its body (`findTool`: for `Mcp-Param-*`). */
export function validateModernHeaders(
  headers: IncomingHttpHeaders,
  method: string,
  params: Record<string, unknown>,
  findTool: (name: string) => { inputSchema: ObjectJsonSchema } | undefined,
): void {
  const meta = params._meta as Record<string, unknown>;
  const versionHeader = headerValue(headers, "mcp-protocol-version");
  if (versionHeader === undefined) throw mismatch("missing MCP-Protocol-Version header");
  if (versionHeader.trim() !== meta[META_PROTOCOL_VERSION]) {
    throw mismatch(`MCP-Protocol-Version header value '${versionHeader.trim()}' does not match _meta protocol version`);
  }

  const methodHeader = headerValue(headers, "mcp-method");
  if (methodHeader === undefined) throw mismatch("missing Mcp-Method header");
  const headerMethod = decodeHeaderValue("Mcp-Method", methodHeader);
  if (headerMethod !== method)
    throw mismatch(`Mcp-Method header value '${headerMethod}' does not match body value '${method}'`);

  const nameParam = NAME_PARAM[method];
  if (nameParam !== undefined) {
    const bodyName = params[nameParam];
    const nameHeader = headerValue(headers, "mcp-name");
    if (nameHeader === undefined) throw mismatch("missing Mcp-Name header");
    const headerName = decodeHeaderValue("Mcp-Name", nameHeader);
    if (headerName !== bodyName)
      throw mismatch(`Mcp-Name header value '${headerName}' does not match body value '${String(bodyName)}'`);
  }

  if (method !== "tools/call" || typeof params.name !== "string") return;
  const tool = findTool(params.name);
  if (!tool) return; // unknown tool: the dispatcher answers -32602
  const args = isRecord(params.arguments) ? params.arguments : {};
  for (const [property, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
    const header = typeof schema === "object" ? schema["x-mcp-header"] : undefined;
    if (typeof header !== "string") continue;
    const raw = headerValue(headers, `mcp-param-${header}`.toLowerCase());
    const value = getOwn(args, property);
    if (raw === undefined) {
      if (value !== undefined && value !== null) throw mismatch(`missing Mcp-Param-${header} header`);
      continue;
    }
    const decoded = decodeHeaderValue(`Mcp-Param-${header}`, raw);
    if (value === undefined || value === null) continue;
    if (!matches(value, decoded))
      throw mismatch(`Mcp-Param-${header} header value does not match argument '${property}'`);
  }
}
