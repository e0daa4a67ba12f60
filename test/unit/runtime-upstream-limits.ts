/**
 * Upstream limits (issue 10, items 6 and 11): one deadline per call whatever the retries, and a
 * cap on the response body counted after decompression (a big body, a declared length, a gzip
 * bomb), with the memory given back. Every upstream is local (127.0.0.1).
 */
import { suite } from "uvu";
import { UPSTREAM_CLIENTS } from "../support/upstream-clients.js";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { callUpstream } from "../../runtime/src/upstream/upstream.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { startUpstream, within } from "../support/runtime-fixture.js";

const tool: ToolDefinition = {
  name: "getBlob",
  description: "d",
  inputSchema: { type: "object", properties: {} },
  http: { method: "get", path: "/blob", parameters: [], response: { accept: ["application/json"] } },
};

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

/** A local upstream whose every answer `answer` writes. */
async function bigUpstream(
  answer: (res: import("node:http").ServerResponse) => void,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Writes `total` bytes in 64 KiB chunks, respecting back-pressure, stopping when the client goes away. */
function stream(
  res: import("node:http").ServerResponse,
  total: number,
  headers: Record<string, string | number> = {},
): void {
  res.writeHead(200, { "content-type": "application/octet-stream", ...headers });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end();
  };
  pump();
}

// Every test runs once per upstream client (got, fetch): the same behaviour is asked of both.
for (const { name: clientName, client, module: clientModule, exported } of UPSTREAM_CLIENTS) {
  const test = suite(`${clientName} client`);

  test("a hanging upstream answers after the one deadline, not once per retry", async () => {
    const upstream = await startUpstream(() => "hang");
    try {
      const started = Date.now();
      // Raced against 3 s, so that a deadline that fails to cancel the request fails instead of hanging.
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        callUpstream(
          tool,
          {},
          {
            upstream: { client, baseUrl: upstream.baseUrl, timeoutMs: 300, retries: 2 },
            userAgent: "t",
            validator: new SchemaValidator(),
          },
        ),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer after 3 s")), 3000))),
      ]).finally(() => clearTimeout(timer));
      const elapsed = Date.now() - started;
      assert.is(result.isError, true);
      assert.match(text(result), /timed out after 300 ms/);
      assert.ok(
        elapsed >= 290 && elapsed < 800,
        `answered after ${elapsed} ms (3 attempts of 300 ms would take > 900)`,
      );
      assert.ok(upstream.received.length <= 1, `${upstream.received.length} attempts`);
    } finally {
      await upstream.close();
    }
  });

  test("calls in flight together each time out at their own deadline (one timer watches them all)", async () => {
    const upstream = await startUpstream(() => "hang");
    const call = (timeoutMs: number) => {
      const started = Date.now();
      const options = { upstream: { client, baseUrl: upstream.baseUrl, timeoutMs, retries: 0 }, userAgent: "t" };
      return callUpstream(tool, {}, { ...options, validator: new SchemaValidator() }).then((result) => ({
        text: text(result),
        elapsed: Date.now() - started,
      }));
    };
    try {
      // The later call's deadline comes first: the timer set for the first call must be brought forward.
      const long = call(1200);
      const short = call(300);
      const [first, second] = await within(Promise.all([short, long]), 5000, "both calls answered");
      assert.match(first.text, /timed out after 300 ms/);
      assert.ok(first.elapsed >= 290 && first.elapsed < 900, `the 300 ms call answered after ${first.elapsed} ms`);
      assert.match(second.text, /timed out after 1200 ms/);
      assert.ok(
        second.elapsed >= 1190 && second.elapsed < 2000,
        `the 1,200 ms call answered after ${second.elapsed} ms`,
      );
    } finally {
      await upstream.close();
    }
  });

  test("retries after 503 stop at the deadline; the message counts the attempts", async () => {
    let n = 0;
    const upstream = await startUpstream(() => (++n === 1 ? { status: 503, body: "busy" } : "hang"));
    try {
      const started = Date.now();
      const result = await callUpstream(
        tool,
        {},
        {
          upstream: { client, baseUrl: upstream.baseUrl, timeoutMs: 700, retries: 2 },
          userAgent: "t",
          validator: new SchemaValidator(),
        },
      );
      const elapsed = Date.now() - started;
      assert.match(text(result), /timed out after 700 ms \(one deadline for the whole call, 2 attempts\)/);
      assert.ok(elapsed >= 690 && elapsed < 1200, `answered after ${elapsed} ms`);
      assert.is(upstream.received.length, 2);
    } finally {
      await upstream.close();
    }
  });

  test("a body larger than the cap aborts the transfer and answers isError (chunked and declared length)", async () => {
    let aborted = 0;
    let closed!: () => void;
    const chunkedClosed = new Promise<void>((resolve) => (closed = resolve));
    const chunked = await bigUpstream((res) => {
      res.on("close", () => {
        aborted += res.writableFinished ? 0 : 1;
        closed();
      });
      stream(res, 64 * 1024 * 1024);
    });
    const declared = await bigUpstream((res) => stream(res, 8 * 1024 * 1024, { "content-length": 8 * 1024 * 1024 }));
    try {
      const call = { userAgent: "t", validator: new SchemaValidator() };
      const big = await callUpstream(
        tool,
        {},
        { ...call, upstream: { client, baseUrl: chunked.baseUrl, maxResponseBytes: 1024 * 1024 } },
      );
      assert.is(big.isError, true);
      assert.match(text(big), /exceeded the size limit of 1048576 bytes \(counted after decompression/);
      assert.match(text(big), /--max-response-bytes/);
      await within(chunkedClosed, 5_000, "the upstream's response closes");
      assert.is(aborted, 1, "the upstream saw its transfer aborted");
      const long = await callUpstream(
        tool,
        {},
        { ...call, upstream: { client, baseUrl: declared.baseUrl, maxResponseBytes: 1024 * 1024 } },
      );
      assert.is(long.isError, true);
      assert.match(text(long), /exceeded the size limit/);
      const fits = await callUpstream(
        tool,
        {},
        { ...call, upstream: { client, baseUrl: declared.baseUrl, maxResponseBytes: 8 * 1024 * 1024 } },
      );
      assert.not.ok(fits.isError, text(fits).slice(0, 200));
    } finally {
      await chunked.close();
      await declared.close();
    }
  });

  test("a gzip bomb (1 MB → 1 GiB) ends in isError at the cap and the memory returns near its baseline", async () => {
    // Measured in a child process: the test runner's own heap would blur the numbers.
    const upstreamModule = new URL("../../runtime/src/upstream/upstream.js", import.meta.url).href;
    const validationModule = new URL("../../runtime/src/api/validation.js", import.meta.url).href;
    const script = `
      import { createServer } from "node:http";
      const { callUpstream } = await import(${JSON.stringify(upstreamModule)});
      const { SchemaValidator } = await import(${JSON.stringify(validationModule)});
      const { gzipSync } = await import("node:zlib");
      // About 1 MB of gzip that inflates to 1 GiB of zeros: a 1 MiB member repeated (gzip readers concatenate members).
      const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
      const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
      const server = createServer((req, res) => {
        req.resume();
        if (req.url.includes("small")) return res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": bomb.length }).end(bomb);
      });
      await new Promise((r) => server.listen(0, "127.0.0.1", r));
      const baseUrl = "http://127.0.0.1:" + server.address().port;
      const tool = (path) => ({ name: "t", description: "d", inputSchema: { type: "object" }, http: { method: "get", path, parameters: [], response: { accept: ["application/json"] } } });
      const { ${exported}: client } = await import(${JSON.stringify(clientModule)});
      const call = { upstream: { client, baseUrl }, userAgent: "t", validator: new SchemaValidator() };
      const settle = async () => { for (let i = 0; i < 4; i++) { global.gc(); await new Promise((r) => setTimeout(r, 50)); } };
      await callUpstream(tool("/small"), {}, call);
      await settle();
      const before = process.memoryUsage();
      let peak = before.rss;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const started = Date.now();
      const result = await callUpstream(tool("/bomb"), {}, call);
      const ms = Date.now() - started;
      clearInterval(sampler);
      await settle();
      const after = process.memoryUsage();
      process.stdout.write(JSON.stringify({ bombBytes: bomb.length, isError: result.isError === true, text: result.content[0].text, ms, before, after, peak }));
      server.close();
      server.closeAllConnections();
    `;
    const child = spawn(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    assert.is(code, 0, err);
    const m = JSON.parse(out) as {
      bombBytes: number;
      isError: boolean;
      text: string;
      ms: number;
      before: NodeJS.MemoryUsage;
      after: NodeJS.MemoryUsage;
      peak: number;
    };
    const mb = (n: number): number => Math.round(n / 1024 / 1024);
    console.log(
      `    gzip bomb ${Math.round(m.bombBytes / 1024)} KiB: isError after ${m.ms} ms; RSS ${mb(m.before.rss)} → peak ${mb(m.peak)} → ${mb(m.after.rss)} MiB; ` +
        `heap+buffers ${mb(m.before.heapUsed + m.before.arrayBuffers)} → ${mb(m.after.heapUsed + m.after.arrayBuffers)} MiB`,
    );
    assert.ok(m.bombBytes < 2 * 1024 * 1024, `bomb of ${m.bombBytes} bytes`);
    assert.is(m.isError, true);
    assert.match(m.text, /exceeded the size limit of 52428800 bytes/);
    assert.ok(m.peak - m.before.rss < 400 * 1024 * 1024, `peak RSS grew by ${mb(m.peak - m.before.rss)} MiB`);
    assert.ok(
      m.after.heapUsed + m.after.arrayBuffers - (m.before.heapUsed + m.before.arrayBuffers) < 10 * 1024 * 1024,
      "heap and buffers back near baseline",
    );
    assert.ok(
      m.after.rss - m.before.rss < 120 * 1024 * 1024,
      `RSS after is ${mb(m.after.rss - m.before.rss)} MiB above baseline`,
    );
  });

  test.run();
}
