import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { info, sampleTools, startUpstream, within, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import { confirmationGate, confirmDestructive } from "../../runtime/src/features/confirm/confirm-gate.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream(() => ({ status: 204 }));
});
test.after(async () => {
  await upstream.close();
});

/** A server whose deletePet is destructive, with the gate; `shared`: a store and secret several instances share. */
function make(shared: Pick<ConstructorParameters<typeof McpServer>[0], "state" | "stateSecret"> = {}): McpServer {
  const tools = sampleTools();
  tools.find((t) => t.name === "deletePet")!.annotations = { destructiveHint: true };
  return new McpServer({
    ...apiFeatures,
    info,
    tools,
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    gate: confirmDestructive,
    ...shared,
  });
}
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
const call = (server: McpServer, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = META) =>
  server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "deletePet", arguments: {}, _meta: meta, ...extra },
  });
function result(r: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(r && "result" in r, JSON.stringify(r));
  return (r as { result: Record<string, any> }).result;
}
const deletes = () => upstream.received.filter((r) => r.method === "DELETE").length;

test("modern: asks first, deletes only after an accepted confirmation", async () => {
  const server = make();
  const first = result(await call(server));
  assert.is(first.resultType, "input_required");
  assert.is(first.inputRequests.confirm.method, "elicitation/create");
  assert.type(first.requestState, "string");
  assert.is(deletes(), 0);
  const declined = result(
    await call(server, { requestState: first.requestState, inputResponses: { confirm: { action: "decline" } } }),
  );
  assert.ok(declined.isError);
  assert.is(deletes(), 0);
  const accepted = result(
    await call(server, {
      requestState: first.requestState,
      inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
    }),
  );
  assert.is(accepted.resultType, "complete");
  assert.not.ok(accepted.isError);
  assert.is(deletes(), 1);
});

test("tampered state is refused with -32602; a client without elicitation gets -32021", async () => {
  const server = make();
  const first = result(await call(server));
  const tampered = await call(server, {
    requestState: (first.requestState[0] === "e" ? "f" : "e") + first.requestState.slice(1),
    inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
  });
  assert.is((tampered as { error: { code: number } }).error.code, -32602);
  const noElicitation = await call(server, {}, { ...META, "io.modelcontextprotocol/clientCapabilities": {} });
  assert.is((noElicitation as { error: { code: number } }).error.code, -32021);
  assert.is(deletes(), 1, "nothing deleted by these");
});

test("legacy without elicitation is refused; legacy with elicitation is asked by a server→client request", async () => {
  const server = make();
  const refused = result(
    await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "deletePet", arguments: {} } }),
  );
  assert.ok(refused.isError);
  assert.match(refused.content[0].text, "cannot be asked");
  assert.is(deletes(), 1);

  await server.handle({
    jsonrpc: "2.0",
    id: 3,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} } },
  });
  const sent: Array<Record<string, any>> = [];
  const arrivals: Array<() => void> = [];
  /** Resolves once the server has sent its `count`-th request to the client. */
  const sentCount = (count: number) =>
    within(
      sent.length >= count ? Promise.resolve() : new Promise<void>((resolve) => arrivals.push(resolve)),
      5_000,
      `server→client request ${count}`,
    );
  const ctx = {
    notify: (m: unknown) => {
      sent.push(m as Record<string, any>);
      arrivals.splice(0).forEach((resolve) => resolve());
    },
  };
  const pending = server.handle(
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "deletePet", arguments: {} } },
    ctx,
  );
  await sentCount(1);
  assert.is(sent[0]!.method, "elicitation/create");
  assert.is(deletes(), 1, "nothing deleted before the answer");
  await server.handle({ jsonrpc: "2.0", id: sent[0]!.id, result: { action: "accept", content: { confirm: true } } });
  assert.not.ok(result(await pending).isError);
  assert.is(deletes(), 2);

  const declined = server.handle(
    { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "deletePet", arguments: {} } },
    ctx,
  );
  await sentCount(2);
  await server.handle({ jsonrpc: "2.0", id: sent[1]!.id, result: { action: "decline" } });
  assert.ok(result(await declined).isError);
  assert.is(deletes(), 2);
});

test("attack: an accepted confirmation is good for its one request; replayed (same tool and arguments, on this instance or another sharing the store) it asks again and deletes nothing", async () => {
  const store = Object.assign(new MemoryStateStore(), { shared: true });
  const instance = () => make({ state: store, stateSecret: "a-state-secret-shared-by-both-instances" });
  const [one, two] = [instance(), instance()];
  const first = result(await call(one));
  const answer = {
    requestState: first.requestState,
    inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
  };
  const before = deletes();
  assert.is(result(await call(one, answer)).resultType, "complete");
  assert.is(deletes(), before + 1);
  for (const server of [one, two]) {
    const replayed = result(await call(server, answer));
    assert.is(replayed.resultType, "input_required", JSON.stringify(replayed));
    assert.is.not(replayed.requestState, first.requestState, "a new confirmation is asked for");
  }
  assert.is(deletes(), before + 1, "the replays deleted nothing");
  // Without a shared store (one process), the same holds.
  const alone = make();
  const asked = result(await call(alone));
  const own = { ...answer, requestState: asked.requestState };
  assert.is(result(await call(alone, own)).resultType, "complete");
  assert.is(result(await call(alone, own)).resultType, "input_required");
  assert.is(deletes(), before + 2);
});

test("x-mcp-confirm: a marked tool asks without --confirm-destructive; an unmarked destructive one does not", async () => {
  const tools = sampleTools();
  tools.find((t) => t.name === "deletePet")!.annotations = { destructiveHint: true };
  tools.find((t) => t.name === "getPet")!.confirm = true;
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools,
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    gate: confirmationGate(false),
  });
  const asked = result(
    await server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "getPet", arguments: { petId: 1 }, _meta: META },
    }),
  );
  assert.is(asked.resultType, "input_required");
  assert.is(asked.inputRequests.confirm.method, "elicitation/create");
  const before = deletes();
  const direct = result(await call(server));
  assert.not.ok(direct.isError);
  assert.is(direct.resultType, "complete");
  assert.is(deletes(), before + 1, "the unmarked destructive tool ran without asking");
});

test.run();
