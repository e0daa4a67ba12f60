/**
 * A request whose handler fails is answered, not left hanging: the HTTP transport's gate answers 500
 * (a JSON-RPC internal error, nothing of the failure's text) when the router or an endpoint throws at
 * once or rejects later, ends an answer already begun, logs the failure, and goes on serving. All on
 * 127.0.0.1.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ServerResponse } from "node:http";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import type { HttpEndpoints } from "../../runtime/src/transport/http-plugs.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

/** Endpoints under /fail/ that fail as their path says: at once, later, or after the answer began. */
const failing: HttpEndpoints = {
  owns: (pathname) => pathname.startsWith("/fail/"),
  handle(_req, res: ServerResponse, pathname) {
    if (pathname === "/fail/at-once") throw new Error("secret detail of a synchronous failure");
    if (pathname === "/fail/later") return Promise.reject(new Error("secret detail of a later failure"));
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("partial ");
    return Promise.reject(new Error("failure after the answer began"));
  },
  closeAll() {},
};

/** A logger keeping its error entries. */
function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const none = () => {};
  return {
    errors,
    debug: none,
    info: none,
    warn: none,
    error: (message, fields) => void errors.push(`${message} ${JSON.stringify(fields)}`),
  };
}

test("a failing handler is answered 500 (at once or later), an answer begun is ended, and the server goes on", async () => {
  const logger = recordingLogger();
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: "http://127.0.0.1:9" },
  });
  const http = await startHttp(server, { port: 0, logger, endpoints: [() => failing] });
  const origin = new URL(http.url).origin;
  try {
    for (const path of ["/fail/at-once", "/fail/later"]) {
      const res = await fetch(`${origin}${path}`);
      assert.is(res.status, 500, path);
      const body = (await res.json()) as { error: { code: number; message: string } };
      assert.is(body.error.code, -32603, path);
      assert.is(body.error.message, "Internal error", path);
      assert.not.match(JSON.stringify(body), /secret/, "the failure's text stays in the log");
    }
    const begun = await fetch(`${origin}/fail/begun`);
    assert.is(begun.status, 200);
    assert.is(await begun.text(), "partial ", "the answer begun is ended, not left open");
    assert.equal(logger.errors.length, 3, logger.errors.join("\n"));
    assert.match(logger.errors[0]!, /http request failed .*synchronous failure/);
    assert.match(logger.errors[1]!, /http request failed .*later failure/);
    const ping = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.is(ping.status, 200, "the server still serves");
  } finally {
    await http.close();
  }
});

test.run();
