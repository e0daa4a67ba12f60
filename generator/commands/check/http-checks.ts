/**
 * Streamable HTTP rules: a foreign `Origin` gets 403 (DNS rebinding), an unsupported
 * `MCP-Protocol-Version` header gets 400, and the SEP-2243 headers of modern requests (`Mcp-Method`,
 * `Mcp-Name`) are validated (400 with -32020 when missing or different from the body).
 */
import { HttpConnection, LEGACY_VERSION, messagesOf, modernParams, postRaw } from "./connection.js";
import { fail, pass, type CheckContext, type CheckDefinition } from "./check-types.js";

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

/** Fails with every problem found, or passes with `ok`. */
function verdict(problems: string[], ok: string) {
  return problems.length > 0 ? fail(problems.join("; ")) : pass(ok);
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
    return verdict(problems, "a foreign Origin gets 403; the server's own origin is served");
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
    return verdict(problems, "an unsupported MCP-Protocol-Version header gets 400; a supported one is served");
  },
};

export const sep2243Headers: CheckDefinition = {
  id: "http-headers",
  weight: 5,
  transport: "http",
  async run(context) {
    const list = { id: "check-mcp-method", method: "tools/list", params: modernParams() };
    const name = context.tools?.[0]?.name ?? "mcp_gen_check_tool";
    const call = { id: "check-mcp-name", method: "tools/call", params: modernParams({ name, arguments: {} }) };
    // Sent one after another: what each sends, and the header changes.
    const cases: [string, typeof list | typeof call, Record<string, string | null>][] = [
      ["Mcp-Method prompts/list on a tools/list body", list, { "mcp-method": "prompts/list" }],
      ["a modern request without Mcp-Method", list, { "mcp-method": null }],
      ["tools/call without Mcp-Name", call, { "mcp-name": null }],
    ];
    const problems: string[] = [];
    for (const [what, message, changes] of cases) {
      const { status, code } = await post(context, message, changes);
      if (status !== 400 || code !== -32020)
        problems.push(`${what} got HTTP ${status} ${code ?? "no error"}, not 400 -32020`);
    }
    return verdict(problems, "missing or mismatched Mcp-Method / Mcp-Name headers get 400 with -32020 (SEP-2243)");
  },
};
