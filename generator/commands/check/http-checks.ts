/**
 * Streamable HTTP rules: a foreign `Origin` gets 403 (DNS rebinding), an unsupported
 * `MCP-Protocol-Version` header gets 400, and the SEP-2243 headers of modern requests (`Mcp-Method`,
 * `Mcp-Name`) are validated (400 with -32020 when missing or different from the body).
 */
import { HttpConnection, LEGACY_VERSION, messagesOf, modernParams, postRaw } from "./connection.js";
import { fail, pass, type CheckContext, type CheckDefinition } from "./types.js";

/** POSTs one message with the connection's usual headers changed by `changes`; status and the error code of the answer. */
async function post(
  context: CheckContext,
  message: { id?: number | string; method: string; params?: Record<string, unknown> },
  changes: Record<string, string | null>,
): Promise<{ status: number; code?: number }> {
  const connection = context.connection as HttpConnection;
  const body = { jsonrpc: "2.0", ...message };
  const headers = { ...connection.headersFor(message) };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  try {
    const exchange = await postRaw(context.url!, JSON.stringify(body), headers, { timeoutMs: 15_000 });
    const code = messagesOf(exchange).find((m) => m.error)?.error?.code;
    return { status: exchange.status, ...(typeof code === "number" ? { code } : {}) };
  } catch {
    return { status: 0 }; // no answer: reported as HTTP 0
  }
}

export const origin: CheckDefinition = {
  id: "http-origin",
  weight: 5,
  transport: "http",
  async run(context) {
    const ping = { id: "check-origin", method: "ping", params: {} };
    const foreign = await post(context, ping, { origin: "http://evil.example.com" });
    const own = await post(context, ping, { origin: context.url!.origin });
    const problems: string[] = [];
    if (foreign.status !== 403)
      problems.push(`a request with Origin http://evil.example.com got HTTP ${foreign.status}, not 403`);
    if (own.status < 200 || own.status > 299)
      problems.push(`a request with the server's own Origin ${context.url!.origin} got HTTP ${own.status}`);
    return problems.length > 0
      ? fail(problems.join("; "))
      : pass("a foreign Origin gets 403; the server's own origin is served");
  },
};

export const protocolVersionHeader: CheckDefinition = {
  id: "http-protocol-version",
  weight: 5,
  transport: "http",
  async run(context) {
    const list = { id: "check-version-header", method: "tools/list", params: {} };
    const bad = await post(context, list, { "mcp-protocol-version": "1999-01-01" });
    const good = await post(context, list, { "mcp-protocol-version": LEGACY_VERSION });
    const problems: string[] = [];
    if (bad.status !== 400) problems.push(`MCP-Protocol-Version: 1999-01-01 got HTTP ${bad.status}, not 400`);
    if (good.status !== 200) problems.push(`MCP-Protocol-Version: ${LEGACY_VERSION} got HTTP ${good.status}, not 200`);
    return problems.length > 0
      ? fail(problems.join("; "))
      : pass("an unsupported MCP-Protocol-Version header gets 400; a supported one is served");
  },
};

export const sep2243Headers: CheckDefinition = {
  id: "http-headers",
  weight: 5,
  transport: "http",
  async run(context) {
    const problems: string[] = [];
    const list = { id: "check-mcp-method", method: "tools/list", params: modernParams() };
    const mismatch = await post(context, list, { "mcp-method": "prompts/list" });
    if (mismatch.status !== 400 || mismatch.code !== -32020)
      problems.push(
        `Mcp-Method prompts/list on a tools/list body got HTTP ${mismatch.status} ${mismatch.code ?? "no error"}, not 400 -32020`,
      );
    const missing = await post(context, list, { "mcp-method": null });
    if (missing.status !== 400 || missing.code !== -32020)
      problems.push(
        `a modern request without Mcp-Method got HTTP ${missing.status} ${missing.code ?? "no error"}, not 400 -32020`,
      );
    const name = context.tools?.[0]?.name ?? "mcp_gen_check_tool";
    const call = { id: "check-mcp-name", method: "tools/call", params: modernParams({ name, arguments: {} }) };
    const noName = await post(context, call, { "mcp-name": null });
    if (noName.status !== 400 || noName.code !== -32020)
      problems.push(
        `tools/call without Mcp-Name got HTTP ${noName.status} ${noName.code ?? "no error"}, not 400 -32020`,
      );
    return problems.length > 0
      ? fail(problems.join("; "))
      : pass("missing or mismatched Mcp-Method / Mcp-Name headers get 400 with -32020 (SEP-2243)");
  },
};
