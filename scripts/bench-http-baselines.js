#!/usr/bin/env node
// The two baselines of npm run bench:http (scripts/bench-http.js), each an HTTP server on 127.0.0.1 (a free port)
// serving the petstore's getPet against the upstream at argv[3], announced on stderr as "listening on <url>" like
// the generated server:
//   sdk:   the same tool written by hand on the official SDK 1.x (McpServer + StreamableHTTPServerTransport in
//          stateless mode, a server and transport per request as the SDK's stateless example does; JSON answers)
//   floor: a bare node:http handler that parses the JSON-RPC request and makes the same upstream call with got
//          (buffered body, no HTTP errors thrown, as the runtime calls), with no MCP validation at all. A request
//          of revision 2026-07-28 (its `_meta` names the version) is answered with the one field that revision's
//          wire format adds to every result, `resultType: "complete"`; nothing is checked.
// Usage: node scripts/bench-http-baselines.js sdk|floor <upstream base URL>
import { createServer } from "node:http";
import got from "got";

const [kind, base] = process.argv.slice(2);

/** The upstream call both baselines make: GET /pets/{petId}, the body as text. */
const fetchPet = async (petId) =>
  (
    await got(`${base}/pets/${encodeURIComponent(String(petId))}`, { throwHttpErrors: false, responseType: "buffer" })
  ).body.toString("utf8");

/** The SDK baseline: a stateless McpServer per request with one tool, getPet. */
async function sdkHandler() {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const { z } = await import("zod");
  const makeServer = () => {
    const server = new McpServer({ name: "sdk-petstore", version: "1.0.0" });
    server.registerTool(
      "getPet",
      { description: "Find a pet by id.", inputSchema: { petId: z.number().int() } },
      async ({ petId }) => ({ content: [{ type: "text", text: await fetchPet(petId) }] }),
    );
    return server;
  };
  return async (req, res) => {
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}

/** The `_meta` key that marks a request of revision 2026-07-28. */
const MODERN_VERSION = "io.modelcontextprotocol/protocolVersion";

/** The floor: read the body, parse it, one got call for tools/call, write the result (2026-07-28: `resultType`). */
function floorHandler(req, res) {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", async () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const result =
      msg.method === "tools/call"
        ? { content: [{ type: "text", text: await fetchPet(msg.params.arguments.petId) }] }
        : {};
    if (msg.params?._meta?.[MODERN_VERSION] !== undefined) result.resultType = "complete";
    const body = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
  });
}

const handler = kind === "sdk" ? await sdkHandler() : kind === "floor" ? floorHandler : undefined;
if (!handler || !base) {
  process.stderr.write("usage: bench-http-baselines.js sdk|floor <upstream base URL>\n");
  process.exit(2);
}
const http = createServer(handler);
http.listen(0, "127.0.0.1", () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));
process.on("SIGTERM", () => http.close(() => process.exit(0)));
