/**
 * Issue 30, finding 1: a legacy server→client request (elicitation, sampling, roots) is answered
 * only by the client it was sent to. Its id is 128 random bits; an answer from another session,
 * stream or OAuth subject is refused and logged, and the asker's own answer still settles the
 * request. The same across instances sharing Redis: test/e2e/state-redis.ts.
 */
import { customCode } from "../../runtime/src/features/custom/index.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { CustomTool } from "../../runtime/src/api/extensions.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import { info, sampleTools, within } from "../support/runtime-fixture.js";
import { sseEvents } from "../support/sse-events.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { legacyClientRequests } from "../../runtime/src/features/client-requests/client-requests.js";

/** A custom tool that asks its client (elicitation/create) and answers with what the client said. */
const asks: CustomTool<any> = {
  name: "asks",
  description: "asks the user",
  inputSchema: { type: "object" },
  handler: async (_args, tools) => {
    const answer = await tools.clientRequest("elicitation/create", {
      message: "Sure?",
      requestedSchema: { type: "object", properties: { v: { type: "string" } } },
    });
    return { content: [{ type: "text", text: `answered ${JSON.stringify(answer)}` }] };
  },
};

function makeServer(warnings: string[], requests = true): McpServer {
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) };
  return new McpServer({
    info,
    tools: sampleTools(),
    upstream: { baseUrl: "http://127.0.0.1:1" },
    extension: { tools: [asks] },
    customCode,
    ...(requests ? { clientRequests: legacyClientRequests } : {}),
    logger,
  });
}
const refusals = (warnings: string[]) => warnings.filter((w) => /refused a client's answer/.test(w)).length;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("in process: answers from another stream or another OAuth subject are refused and logged; the asker's own answer settles", async () => {
  const warnings: string[] = [];
  const server = makeServer(warnings);
  await server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: { elicitation: {} } },
  });
  const sent: Array<{ id: string }> = [];
  let arrived!: () => void;
  const asked = new Promise<void>((resolve) => (arrived = resolve));
  const victim = { scope: "sse:victim", subject: "alice" };
  const pending = server.handle(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "asks", arguments: {} } },
    {
      ...victim,
      notify: (message) => {
        sent.push(message as unknown as { id: string });
        arrived();
      },
    },
  );
  await within(asked, 5_000, "the elicitation request");
  const id = sent[0]!.id;
  const answer = (v: string) => ({ jsonrpc: "2.0", id, result: { action: "accept", content: { v } } });
  await server.handle(answer("other stream"), { scope: "sse:mallory", subject: "alice" });
  await server.handle(answer("other subject"), { scope: "sse:victim", subject: "mallory" });
  const state = await Promise.race([pending.then(() => "answered"), pause(200).then(() => "waiting")]);
  assert.is(state, "waiting", "another client's answer settled the request");
  assert.is(refusals(warnings), 2);
  await server.handle(answer("victim"), victim);
  const result = await within(pending, 5_000, "the call's answer");
  assert.match(JSON.stringify(result), /answered.*victim/);
});

test("without feature client-requests, ctx.clientRequest answers an error naming mcp-gen --with client-requests", async () => {
  const server = makeServer([], false);
  await server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: { elicitation: {} } },
  });
  const sent: unknown[] = [];
  const response = await server.handle(
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "asks", arguments: {} } },
    { notify: (message) => sent.push(message) },
  );
  assert.equal(sent, [], "nothing is sent to the client");
  assert.match(JSON.stringify(response), /needs the client-requests feature.*mcp-gen --with client-requests/);
});

test("HTTP sessions: the request id is 128 random bits; another session's accept is refused and logged; the asker's own answer completes the call", async () => {
  const warnings: string[] = [];
  const http = await startHttp(makeServer(warnings), {
    host: "127.0.0.1",
    port: 0,
    sessions: httpSessions(new MemoryStateStore()),
  });
  const post = (body: unknown, session?: string) =>
    fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session ? { "mcp-session-id": session } : {}),
      },
      body: JSON.stringify(body),
    });
  const open = async (): Promise<string> => {
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { elicitation: {} },
        clientInfo: { name: "t", version: "1" },
      },
    });
    await init.text();
    return init.headers.get("mcp-session-id")!;
  };
  try {
    const victim = await open();
    const attacker = await open();
    const call = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "asks", arguments: {} } },
      victim,
    );
    const next = sseEvents(call);
    const asked = JSON.parse(/data: (.*)/.exec(await next())![1]!) as { id: string; method: string };
    assert.is(asked.method, "elicitation/create");
    assert.match(asked.id, /^srv-[A-Za-z0-9_-]{22}$/, "no per-process prefix and counter to guess from");
    // The attacker even knows the id (the worst case): its accept is still refused.
    const forged = await post(
      { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { v: "attacker" } } },
      attacker,
    );
    assert.is(forged.status, 202);
    await pause(100);
    assert.is(refusals(warnings), 1);
    const own = await post(
      { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { v: "victim" } } },
      victim,
    );
    assert.is(own.status, 202);
    const answered = await next();
    assert.match(answered, /answered.*victim/);
    assert.not.match(answered, /attacker/);
  } finally {
    await http.close();
  }
});

test.run();
