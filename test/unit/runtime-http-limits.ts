/**
 * HTTP-side limits (issue 10, items 7, 8 and 13): bounded batches and upstream concurrency, a
 * `MCP-Protocol-Version` header that never overrides a session's negotiated version, the `Host`
 * check against DNS rebinding, and a SIGTERM that drains calls in flight. All on 127.0.0.1.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { main } from "../../runtime/src/cli/main.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import { info, sampleTools, within } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";

/** An upstream that answers every request after `delayMs` and records how many were in flight at most. */
async function countingUpstream(delayMs: number): Promise<{
  baseUrl: string;
  received: () => number;
  receivedAll: (count: number) => Promise<void>;
  maxInFlight: () => number;
  close: () => Promise<void>;
}> {
  let inFlight = 0;
  let max = 0;
  let received = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    received += 1;
    for (const waiter of waiting) if (received >= waiter.count) waiter.resolve();
    inFlight += 1;
    max = Math.max(max, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      res.writeHead(200, { "content-type": "application/json" }).end('{"id":1,"name":"Rex"}');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    /** Resolves once `count` requests have arrived. */
    receivedAll: (count) =>
      received >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve })),
    maxInFlight: () => max,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };

const getPet = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "getPet", arguments: { petId: id } },
});

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

test("a batch of 20,000 tools/call is refused whole; a batch at the limit runs with at most the concurrency limit in flight", async () => {
  const upstream = await countingUpstream(20);
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, concurrency: 8 },
  });
  const http = await startHttp(server, { port: 0 });
  try {
    const huge = await post(
      http.url,
      Array.from({ length: 20_000 }, (_, i) => getPet(i + 1)),
      { "mcp-protocol-version": "2025-03-26" },
    );
    assert.is(huge.json.error.code, -32600);
    assert.match(huge.json.error.message, /batch too large: 20000 messages, the limit is 100 .*--max-batch/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(upstream.received(), 0, "nothing of the refused batch went upstream");

    const full = await post(
      http.url,
      Array.from({ length: 100 }, (_, i) => getPet(i + 1)),
      { "mcp-protocol-version": "2025-03-26" },
    );
    assert.is(full.status, 200);
    assert.is(full.json.length, 100);
    assert.ok(
      full.json.every((r: any) => r.result && !r.result.isError),
      JSON.stringify(full.json.find((r: any) => !r.result || r.result.isError)),
    );
    assert.is(upstream.received(), 100);
    assert.ok(upstream.maxInFlight() <= 8, `${upstream.maxInFlight()} upstream requests in flight at once (limit 8)`);
    assert.ok(upstream.maxInFlight() >= 2, "calls do run concurrently up to the limit");
  } finally {
    await http.close();
    await upstream.close();
  }
});

test("concurrent HTTP requests share the server's upstream queue", async () => {
  const upstream = await countingUpstream(30);
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, concurrency: 3 },
  });
  const http = await startHttp(server, { port: 0 });
  try {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(http.url, getPet(i + 1))));
    assert.ok(answers.every((a) => a.status === 200 && a.json.result && !a.json.result.isError));
    assert.is(upstream.received(), 30);
    assert.ok(upstream.maxInFlight() <= 3, `${upstream.maxInFlight()} in flight (limit 3)`);
  } finally {
    await http.close();
    await upstream.close();
  }
});

test("over --http the upstream is not capped at stdio's 8 per host by default; the flag still caps it", async () => {
  /** The most upstream requests in flight at once when 24 clients call at once, the server started with `argv`. */
  const peak = async (argv: string[]): Promise<number> => {
    // Each upstream answer takes 300 ms, so a loaded machine still has the 24 requests in flight together.
    const upstream = await countingUpstream(300);
    const argvAll = ["--http", "--port", "0", "--base-url", upstream.baseUrl, ...argv];
    const http = (await main(info, sampleTools(), argvAll)) as HttpHandle;
    try {
      const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => post(http.url, getPet(i + 1))));
      assert.ok(answers.every((a) => a.status === 200 && a.json.result && !a.json.result.isError));
      assert.is(upstream.received(), 24);
      return upstream.maxInFlight();
    } finally {
      await http.close();
      await upstream.close();
    }
  };
  const open = await peak([]);
  assert.ok(open > 8, `${open} upstream requests in flight at once with the defaults (stdio's: 8)`);
  const capped = await peak(["--upstream-host-concurrency", "8"]);
  assert.ok(capped <= 8, `${capped} in flight with --upstream-host-concurrency 8`);
});

test("upstream queue: a cancelled call that waits for a slot is never sent; a cancelled running call frees its slot", async () => {
  // Slow enough that the first call still holds the only slot while the second waits and is cancelled.
  const upstream = await countingUpstream(1_500);
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, concurrency: 1 },
  });
  const cancel = (id: number) =>
    server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "test" } });
  try {
    const running = server.handle(getPet(1));
    await within(upstream.receivedAll(1), 5_000, "the first call reached the upstream");
    const waiting = server.handle(getPet(2));
    await cancel(2);
    assert.is(
      await within(waiting, 1_000, "the waiting call settled on cancellation"),
      undefined,
      "a cancelled call gets no response",
    );
    const first = (await running) as any;
    assert.ok(first.result && !first.result.isError, "the call holding the slot completes");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.is(upstream.received(), 1, "the cancelled waiting call never went upstream");

    const slow = server.handle(getPet(3));
    await within(upstream.receivedAll(2), 5_000, "the third call reached the upstream");
    await cancel(3);
    assert.is(await within(slow, 1_000, "the running call settled on cancellation"), undefined);
    // The slot is free again at once: the next call goes upstream before the cancelled one's response was due.
    const next = server.handle(getPet(4));
    await within(upstream.receivedAll(3), 1_000, "the next call took the freed slot");
    const last = (await next) as any;
    assert.ok(last.result && !last.result.isError);
  } finally {
    await upstream.close();
  }
});

test("a client that disconnects cancels its call in flight: the upstream request is aborted", async () => {
  // An upstream that never answers, and says when a request it holds was aborted by the server.
  let arrived!: () => void;
  let aborted!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const cancelled = new Promise<void>((resolve) => (aborted = resolve));
  const upstream = createServer((req, res) => {
    req.resume();
    res.on("close", () => res.writableFinished || aborted());
    arrived();
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl, timeoutMs: 60_000 },
  });
  const http = await startHttp(server, { port: 0 });
  try {
    const client = new AbortController();
    const call = fetch(http.url, {
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(getPet(1)),
      signal: client.signal,
    }).catch((error: Error) => error.name);
    await within(reached, 5_000, "the call reached the upstream");
    client.abort();
    assert.is(await within(call, 2_000, "the client gave up"), "AbortError");
    await within(cancelled, 2_000, "the upstream request was aborted when the client left");
  } finally {
    await http.close();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});

test("a session negotiated at 2025-06-18: a 2025-03-26 header is refused, and without a header batches stay refused", async () => {
  const upstream = await countingUpstream(1);
  const server = new McpServer({ ...apiFeatures, info, tools: sampleTools(), upstream: { baseUrl: upstream.baseUrl } });
  const http = await startHttp(server, { port: 0, sessions: httpSessions(new MemoryStateStore()) });
  try {
    const init = await post(http.url, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    assert.ok(session);
    const batch = [getPet(1), getPet(2)];
    const forged = await post(http.url, batch, { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" });
    assert.is(forged.status, 400);
    assert.match(forged.json.error.message, /contradicts the version negotiated for this session \(2025-06-18\)/);
    const bare = await post(http.url, batch, { "mcp-session-id": session });
    assert.is(bare.json.error.code, -32600);
    assert.match(bare.json.error.message, /only supported in protocol revision 2025-03-26 \(current: 2025-06-18\)/);
    const same = await post(http.url, getPet(3), { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" });
    assert.is(same.json.result.isError, undefined);
    assert.is(upstream.received(), 1, "only the single call went upstream");
  } finally {
    await http.close();
    await upstream.close();
  }
});

/** A POST through node:http, which (unlike fetch) lets a test choose the Host header (`undefined`: none). */
function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string | undefined>,
): Promise<{ status: number; json: any }> {
  const target = new URL(url);
  const { host, ...rest } = headers;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { ...JSON_HEADERS, ...rest, ...(host !== undefined ? { host } : {}) },
        setHost: host !== undefined,
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/** The status of a ping sent with `host` as the Host header. */
async function postWithHost(url: string, host: string | undefined): Promise<number> {
  return (await rawPost(url, { jsonrpc: "2.0", id: 1, method: "ping" }, { host })).status;
}

test("Host check: loopback binds accept localhost, 127.0.0.1 and [::1] with the port, refuse others with 403; configurable", async () => {
  const server = new McpServer({ ...apiFeatures, info, tools: sampleTools(), upstream: {} });
  const loopback = await startHttp(server, { port: 0 });
  const configured = await startHttp(server, { port: 0, allowedHosts: ["mcp.example.com", "proxy.internal:8443"] });
  const open = await startHttp(server, { port: 0, allowedHosts: [] });
  try {
    const port = loopback.port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`])
      assert.is(await postWithHost(loopback.url, host), 200, host);
    for (const host of [
      "evil.example",
      `evil.example:${port}`,
      `localhost:${port + 1}`,
      `127.0.0.1.nip.io:${port}`,
      "localhost",
    ]) {
      assert.is(await postWithHost(loopback.url, host), 403, host);
    }
    // Node itself answers 400 to an HTTP/1.1 request without Host; either way it is not served.
    assert.ok([400, 403].includes(await postWithHost(loopback.url, undefined)), "no Host header");
    assert.is(await postWithHost(configured.url, "mcp.example.com"), 200);
    assert.is(await postWithHost(configured.url, "mcp.example.com:443"), 200);
    assert.is(await postWithHost(configured.url, "proxy.internal:8443"), 200);
    assert.is(await postWithHost(configured.url, "proxy.internal:9000"), 403);
    assert.is(await postWithHost(configured.url, `127.0.0.1:${configured.port}`), 403, "a list replaces the defaults");
    assert.is(await postWithHost(open.url, "anything.example"), 200, "an empty list turns the check off");
  } finally {
    await loopback.close();
    await configured.close();
    await open.close();
  }
});

test("the CLI reads each limit from its flag, else its environment variable; bad values are usage errors", async () => {
  const upstream = await countingUpstream(1);
  const saved = { ...process.env };
  const previousExit = process.exitCode;
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  const handles: HttpHandle[] = [];
  try {
    process.env.MCP_MAX_BATCH = "2";
    process.env.MCP_MAX_RESPONSE_BYTES = "5";
    process.env.MCP_ALLOWED_HOSTS = "mcp.example.com";
    const fromEnv = (await main(info, sampleTools(), [
      "--http",
      "--port",
      "0",
      "--base-url",
      upstream.baseUrl,
    ])) as HttpHandle;
    handles.push(fromEnv);
    assert.is(
      await postWithHost(fromEnv.url, `127.0.0.1:${fromEnv.port}`),
      403,
      "MCP_ALLOWED_HOSTS replaces the loopback defaults",
    );
    assert.is(await postWithHost(fromEnv.url, "mcp.example.com"), 200);
    const headers = { "mcp-protocol-version": "2025-03-26", host: "mcp.example.com" };
    assert.match(
      (await rawPost(fromEnv.url, [getPet(1), getPet(2), getPet(3)], headers)).json.error.message,
      /the limit is 2/,
    );
    const capped = await rawPost(fromEnv.url, getPet(1), headers);
    assert.match(capped.json.result.content[0].text, /exceeded the size limit of 5 bytes/);

    const fromFlags = (await main(info, sampleTools(), [
      "--http",
      "--port",
      "0",
      "--base-url",
      upstream.baseUrl,
      "--max-batch",
      "3",
      "--max-response-bytes",
      "1000",
      "--allowed-hosts",
      "*",
    ])) as HttpHandle;
    handles.push(fromFlags);
    assert.is(await postWithHost(fromFlags.url, "anything.example"), 200, "--allowed-hosts '*' turns the check off");
    const ok = await post(fromFlags.url, [getPet(1), getPet(2), getPet(3)], { "mcp-protocol-version": "2025-03-26" });
    assert.is(ok.json.length, 3);
    assert.ok(ok.json.every((r: any) => !r.result.isError));

    delete process.env.MCP_ALLOWED_HOSTS;
    delete process.env.MCP_STATE_SECRET;
    for (const argv of [
      ["--http", "--max-batch", "0"],
      ["--http", "--upstream-concurrency", "many"],
      ["--shutdown-grace", "10"],
      ["--allowed-hosts", "a"],
      // Issue 30: Redis holds shared state only encrypted, so it needs the secret (refused before connecting).
      ["--http", "--port", "0", "--state", "redis://127.0.0.1:1/0"],
    ]) {
      process.exitCode = undefined;
      assert.is(await main(info, sampleTools(), argv), undefined, argv.join(" "));
      assert.is(process.exitCode, 2, argv.join(" "));
    }
    process.env.MCP_MAX_BATCH = "-1";
    process.exitCode = undefined;
    assert.is(await main(info, sampleTools(), ["--http", "--port", "0"]), undefined, "a bad MCP_MAX_BATCH");
    assert.is(process.exitCode, 2);
  } finally {
    process.stderr.write = write;
    process.exitCode = previousExit;
    for (const key of ["MCP_MAX_BATCH", "MCP_MAX_RESPONSE_BYTES", "MCP_ALLOWED_HOSTS", "MCP_STATE_SECRET"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    for (const handle of handles) await handle.close();
    await upstream.close();
  }
});

test("slow request bodies: cut off by the request timeout; bodies arriving at once share a budget (503 beyond it); connections are capped", async () => {
  // Issue 30, finding 6: 60 slow 4 MB bodies raised RSS by 177 MB, and nothing closed them for Node's 300 s.
  const server = new McpServer({ info, tools: sampleTools(), upstream: { baseUrl: "http://127.0.0.1:1" } });
  const http = await startHttp(server, {
    host: "127.0.0.1",
    port: 0,
    requestTimeoutMs: 500,
    bodyBudgetBytes: 1_000_000,
    maxConnections: 8,
  });
  const sockets: Socket[] = [];
  /** A raw connection: what it received, and when it closed. */
  const open = (request?: string) => {
    const socket = connect(http.port, "127.0.0.1");
    sockets.push(socket);
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", () => {});
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    if (request) socket.write(request);
    return { socket, received: () => received, closed };
  };
  /** A POST announcing 4 MB of body and sending only `sent` bytes of it. */
  const slowBody = (sent: number) =>
    open(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\n\r\n${"x".repeat(sent)}`,
    );
  try {
    const first = slowBody(400_000);
    const second = slowBody(400_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const third = slowBody(400_000);
    await within(third.closed, 5_000, "the body over the budget is refused");
    assert.match(third.received(), /^HTTP\/1\.1 503 /);
    const started = Date.now();
    await within(
      Promise.all([first.closed, second.closed]),
      5_000,
      "the slow bodies are cut off by the request timeout",
    );
    assert.ok(Date.now() - started < 3_000);
    // Eight connections are open at most; the ninth is closed as it arrives.
    const idle = Array.from({ length: 8 }, () => open());
    await Promise.all(idle.map(({ socket }) => new Promise((resolve) => socket.once("connect", resolve))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ninth = open();
    await within(ninth.closed, 2_000, "the connection over the cap is closed");
    assert.is(idle.filter(({ socket }) => socket.destroyed).length, 0, "the others stay open");
    for (const { socket } of idle) socket.destroy();
    // The budget is free again (once the server has seen those connections close).
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      status = await post(http.url, { jsonrpc: "2.0", id: 1, method: "ping" }).then(
        (answer) => answer.status,
        () => new Promise<number>((resolve) => setTimeout(() => resolve(0), 50)),
      );
    }
    assert.is(status, 200);
  } finally {
    for (const socket of sockets) socket.destroy();
    await http.close();
  }
});

test("SIGTERM drains: calls in flight complete, new requests are refused, the process exits", async () => {
  const upstream = await countingUpstream(1500);
  const cli = new URL("../../runtime/src/cli/main.js", import.meta.url).href;
  const fixture = new URL("../support/runtime-fixture.js", import.meta.url).href;
  const script = `
    const { main } = await import(${JSON.stringify(cli)});
    const { info, sampleTools } = await import(${JSON.stringify(fixture)});
    await main(info, sampleTools(), ["--http", "--port", "0", "--base-url", ${JSON.stringify(upstream.baseUrl)}, "--shutdown-grace", "5000"]);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on("exit", (code) => resolve({ code, at: Date.now() })),
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.on("exit", () => reject(new Error(`server exited: ${stderr}`)));
    });
    const N = 12;
    // A dropped call resolves to status 0 with its error, so the assertions below name it.
    const calls = Array.from({ length: N }, (_, i) =>
      post(url, getPet(i + 1)).catch((error: Error) => ({
        status: 0,
        json: { error: `${error.message}: ${String(error.cause)}` },
      })),
    );
    await within(upstream.receivedAll(N), 10_000, `${N} calls reach the upstream`);
    const signalled = Date.now();
    // The server logs this line and starts draining in the same turn of its event loop.
    const shuttingDown = new Promise<void>((resolve) => {
      const onData = (): void => {
        if (!stderr.includes("received SIGTERM, shutting down")) return;
        child.stderr!.off("data", onData);
        resolve();
      };
      child.stderr!.on("data", onData);
    });
    child.kill("SIGTERM");
    await within(shuttingDown, 10_000, "the server logs that it is shutting down");
    const late = await post(url, getPet(99)).then(
      (answer) => `HTTP ${answer.status}`,
      (error: Error) => `refused (${(error.cause as { code?: string } | undefined)?.code ?? error.message})`,
    );
    assert.ok(late === "HTTP 503" || late.startsWith("refused"), `a request after SIGTERM: ${late}`);
    const answers = await Promise.all(calls);
    for (const answer of answers) {
      assert.is(answer.status, 200, JSON.stringify(answer.json));
      assert.equal(answer.json.result.structuredContent, { id: 1, name: "Rex" }, JSON.stringify(answer.json));
    }
    const { code, at } = await exited;
    assert.is(code, 0, stderr);
    assert.ok(at - signalled < 4000, `exited ${at - signalled} ms after SIGTERM`);
    assert.is(upstream.received(), N, "the late request never went upstream");
    console.log(
      `    SIGTERM with ${N} calls in flight: all answered, late request ${late}, exit ${at - signalled} ms after the signal`,
    );
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    await upstream.close();
  }
});

test.run();
