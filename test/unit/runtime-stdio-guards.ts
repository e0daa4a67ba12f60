/**
 * The stdio transport's guards: a line longer than the limit is answered with an error as soon as
 * the limit is passed (never buffered whole); stdout's backpressure stops reading stdin until it
 * drains; requests beyond the cap in flight are refused at once, while notifications and the
 * client's responses always pass.
 */
import { PassThrough, Writable } from "node:stream";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { McpServer } from "../../runtime/src/server/server.js";
import { startStdio } from "../../runtime/src/transport/stdio.js";
import { within } from "../support/runtime-fixture.js";

/** A stand-in server: records what it dispatched; `hold` keeps requests of method `slow` pending until released. */
function stubServer() {
  const dispatched: Array<Record<string, unknown>> = [];
  const held: Array<() => void> = [];
  const server = {
    async dispatch(payload: Record<string, unknown>) {
      dispatched.push(payload);
      if (payload.method === "slow") await new Promise<void>((resolve) => held.push(resolve));
      return "id" in payload && payload.method ? { jsonrpc: "2.0", id: payload.id, result: { ok: true } } : undefined;
    },
    closeSubscriptions() {},
    cancelTasks() {},
  };
  return { server: server as unknown as McpServer, dispatched, held };
}

/** Reads the output's lines as they come; `next(n)` waits for the n-th. */
function reader(output: PassThrough) {
  const messages: Array<Record<string, any>> = [];
  let buffered = "";
  const waiters: Array<() => void> = [];
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line) messages.push(JSON.parse(line) as Record<string, any>);
    waiters.splice(0).forEach((wake) => wake());
  });
  const count = (n: number): Promise<void> =>
    messages.length >= n
      ? Promise.resolve()
      : new Promise((resolve) => waiters.push(() => void count(n).then(resolve)));
  return { messages, count: (n: number, what: string) => within(count(n), 2_000, what) };
}

const request = (id: number | string, method = "ping") => JSON.stringify({ jsonrpc: "2.0", id, method }) + "\n";

test("a line over the limit gets -32600 as soon as the limit is passed, before its end; the next line is served", async () => {
  const { server, dispatched } = stubServer();
  const input = new PassThrough();
  const output = new PassThrough();
  const out = reader(output);
  const options = { input, output, maxLineBytes: 1024 };
  const handle = startStdio(server, options);
  input.write(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${"a".repeat(600)}`);
  input.write("b".repeat(600));
  // The line has not ended: the error comes anyway, so the server never holds more than the limit.
  await out.count(1, "the error for the long line");
  assert.is(out.messages[0]!.error.code, -32600);
  assert.match(out.messages[0]!.error.message, "larger than 1024 bytes");
  assert.is(out.messages[0]!.id, null);
  input.write(`${"c".repeat(5000)}"}}\n`);
  input.write(request(8));
  await out.count(2, "the answer to the next line");
  assert.equal(
    dispatched.map((m) => m.id),
    [8],
    "the rest of the long line is skipped, not read as a message",
  );
  input.end();
  await handle.closed;
});

test("stdout's backpressure: while a write is refused (write() false) no more input is read; after 'drain' all is answered", async () => {
  const { server, dispatched } = stubServer();
  const input = new PassThrough();
  const written: string[] = [];
  let release: (() => void) | undefined;
  let flowing = false;
  // A slow consumer: accepts one chunk, then holds the next callback until released.
  const output = new Writable({
    highWaterMark: 8,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString("utf8"));
      if (flowing) done();
      else release = done;
    },
  });
  const handle = startStdio(server, { input, output });
  input.write(request(1));
  await within(
    new Promise<void>((resolve) => {
      const poll = (): void => (release ? resolve() : void setTimeout(poll, 5));
      poll();
    }),
    2_000,
    "the first answer is being written",
  );
  // stdout holds the first answer and refused more (write() returned false): the next nine wait.
  input.write(Array.from({ length: 9 }, (_, i) => request(i + 2)).join(""));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(dispatched.length, 1, `read on while stdout was full: ${dispatched.length} of 10 dispatched`);
  for (let round = 0; round < 100 && written.join("").split("\n").filter(Boolean).length < 10; round++) {
    const done = release;
    release = undefined;
    done?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.is(written.join("").split("\n").filter(Boolean).length, 10, "every request answered after the drains");
  assert.is(dispatched.length, 10);
  flowing = true;
  release?.();
  input.end();
  await within(handle.closed, 2_000, "closed");
});

test("requests beyond the cap in flight are refused at once (429, retry later); notifications and responses still pass", async () => {
  const { server, dispatched, held } = stubServer();
  const input = new PassThrough();
  const output = new PassThrough();
  const out = reader(output);
  const options = { input, output, maxInFlight: 3 };
  const handle = startStdio(server, options);
  for (let id = 1; id <= 5; id++) input.write(request(id, "slow"));
  await out.count(2, "two refusals");
  assert.equal(
    out.messages.map((m) => m.id),
    [4, 5],
  );
  for (const message of out.messages) {
    assert.is(message.error.code, 429);
    assert.match(message.error.message, "3 requests in flight");
  }
  // A ping is answered at the cap too: it is how a client tells a busy server from a dead one.
  input.write(request("ping-1", "ping"));
  await out.count(3, "the ping answered at the cap");
  assert.equal(out.messages.at(-1), { jsonrpc: "2.0", id: "ping-1", result: { ok: true } });
  input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }) + "\n");
  input.write(JSON.stringify({ jsonrpc: "2.0", id: "s-1", result: {} }) + "\n");
  await within(
    new Promise<void>((resolve) => {
      const poll = (): void => (dispatched.length >= 6 ? resolve() : void setTimeout(poll, 5));
      poll();
    }),
    2_000,
    "the notification and the response dispatched",
  );
  held.splice(0).forEach((resolve) => resolve());
  await out.count(6, "the three held requests answered");
  input.write(request(6));
  await out.count(7, "a request after the others finished");
  assert.ok(out.messages.at(-1)!.result, "served once below the cap");
  input.end();
  await handle.closed;
});

test.run();
