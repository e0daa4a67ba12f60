/** The runtime CLI's tasks flags: `--task-after MS` sets the deadline, `--no-tasks` turns the extension off. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { main } from "../../runtime/src/cli/main.js";
import type { HttpHandle } from "../../runtime/src/transport/http.js";
import { info, sampleTools, startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { tasks } from "../../runtime/src/features/tasks/index.js";

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id":5,"name":"Late"}',
    delayMs: 200,
  }));
});
test.after(async () => {
  await upstream.close();
});

const TASKS = "io.modelcontextprotocol/tasks";

async function call(
  url: string,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<Record<string, any>> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name) headers["mcp-name"] = name;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
  };
  const res = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  return ((await res.json()) as { result: Record<string, any> }).result;
}

async function serve(flags: string[]): Promise<HttpHandle> {
  const handle = await main(info, sampleTools(), ["--http", "--port", "0", "--base-url", upstream.baseUrl, ...flags], {
    features: [tasks],
  });
  assert.ok(handle, `main did not start with ${flags.join(" ")}`);
  return handle as HttpHandle;
}

test("--task-after 50: a 200 ms upstream call becomes a task; --no-tasks: no extension, the call answers in line", async () => {
  const tasks = await serve(["--task-after", "50"]);
  try {
    assert.ok((await call(tasks.url, "server/discover", {})).capabilities.extensions[TASKS]);
    const created = await call(tasks.url, "tools/call", { name: "getPet", arguments: { petId: 5 } }, "getPet");
    assert.is(created.resultType, "task");
  } finally {
    await tasks.close();
  }
  const off = await serve(["--no-tasks"]);
  try {
    assert.not.ok("extensions" in (await call(off.url, "server/discover", {})).capabilities);
    const inline = await call(off.url, "tools/call", { name: "getPet", arguments: { petId: 5 } }, "getPet");
    assert.equal(inline.structuredContent, { id: 5, name: "Late" });
  } finally {
    await off.close();
  }
});

test("a malformed --task-after is a usage error (exit code 2)", async () => {
  const previous = process.exitCode;
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.is(await main(info, sampleTools(), ["--http", "--task-after", "soon"], { features: [tasks] }), undefined);
    assert.is(process.exitCode, 2);
  } finally {
    process.stderr.write = write;
    process.exitCode = previous;
  }
});

test.run();
