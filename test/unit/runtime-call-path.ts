import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer } from "../../runtime/src/server/server.js";
import { ClientChannel } from "../../runtime/src/server/request-tools.js";
import { info, sampleTools, startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

// The per-call path of an operation tool: what it builds only when a feature asks for it.

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: 1, name: "Rex" }),
  }));
});
test.after(async () => {
  await upstream.close();
});

const make = (extra: Record<string, unknown> = {}): McpServer =>
  new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    ...extra,
  });
const call = (server: McpServer, extra: Record<string, unknown> = {}) =>
  server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "getPet", arguments: { petId: 1 }, ...extra },
  });

/** Counts the request tools made while `run` runs. */
async function countRequestTools(run: () => Promise<unknown>): Promise<number> {
  const original = ClientChannel.prototype.requestTools;
  let made = 0;
  ClientChannel.prototype.requestTools = function (this: ClientChannel, ...args) {
    made += 1;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    ClientChannel.prototype.requestTools = original;
  }
  return made;
}

test("an operation call without sign-in, gate or hooks makes no request tools", async () => {
  const server = make();
  let response: unknown;
  const made = await countRequestTools(async () => (response = await call(server)));
  const result = (response as { result: Record<string, any> }).result;
  assert.not.ok(result.isError, JSON.stringify(result));
  assert.equal(result.structuredContent, { id: 1, name: "Rex" });
  assert.is(made, 0);
});

test("a hook gets the request tools it is handed", async () => {
  let seen: unknown;
  const beforeCall = (_tool: unknown, _args: unknown, tools: unknown): void => void (seen = tools);
  const server = make({ extension: { hooks: { beforeCall } } });
  const made = await countRequestTools(() => call(server));
  assert.is(made, 1);
  assert.type((seen as { signal: AbortSignal }).signal, "object");
});

test("hooks for another tool make no request tools for this call; its own hooks get them once", async () => {
  const after = (result: unknown): unknown => result;
  const server = make({ extension: { hooks: { listPets: { before: (args: unknown) => args, after } } } });
  assert.is(await countRequestTools(() => call(server)), 0);
  let seen = 0;
  const own = make({
    extension: { hooks: { getPet: { before: (args: unknown) => args, after: (r: unknown) => ((seen += 1), r) } } },
  });
  assert.is(await countRequestTools(() => call(own)), 1);
  assert.is(seen, 1);
});

test("malformed MRTR fields on a plain operation call are still refused with -32602, before going upstream", async () => {
  const server = make();
  const before = upstream.received.length;
  const bad = await call(server, { inputResponses: { confirm: "yes" } });
  assert.is((bad as { error: { code: number } }).error.code, -32602);
  const foreign = await call(server, { requestState: "not-a-sealed-state" });
  assert.is((foreign as { error: { code: number } }).error.code, -32602);
  assert.is(upstream.received.length, before);
});

test.run();
