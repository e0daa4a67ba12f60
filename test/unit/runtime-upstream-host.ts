/**
 * Outbound limits: the cap on calls per upstream host (default 8) and the client-side rate
 * (`--upstream-rate`). 40 parallel calls to an upstream that answers 429 above 10 concurrent
 * requests: none reaches the model as a 429 with the default cap (and some do without it); a rate
 * spaces the starts of the queue's exchanges (timed in the queue) and so the upstream's arrivals; the
 * queue's key is the URL's host.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer } from "../../runtime/src/server/server.js";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { hostOf, type UpstreamOptions } from "../../runtime/src/upstream/upstream.js";
import { UpstreamQueue } from "../../runtime/src/upstream/queue.js";
import { Cancellation } from "../../runtime/src/protocol/cancellation.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

/** An upstream that answers 429 to a request arriving while 10 are in flight, else 200 after 40 ms. */
async function crowdedUpstream(): Promise<{
  url: string;
  max: () => number;
  starts: number[];
  close(): Promise<void>;
}> {
  let inFlight = 0;
  let max = 0;
  const starts: number[] = [];
  const server: Server = createServer((req, res) => {
    starts.push(performance.now());
    inFlight += 1;
    max = Math.max(max, inFlight);
    res.on("close", () => (inFlight -= 1));
    if (inFlight > 10) {
      res.writeHead(429, { "content-type": "application/json" }).end('{"error":"too many"}');
      return;
    }
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), 40);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    max: () => max,
    starts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function burst(upstream: UpstreamOptions, calls: number): Promise<Array<Record<string, any>>> {
  const server = new McpServer({ ...apiFeatures, info, tools: sampleTools(), upstream });
  const answers = await Promise.all(
    Array.from(
      { length: calls },
      (_, i) =>
        server.handle({
          jsonrpc: "2.0",
          id: i,
          method: "tools/call",
          params: { name: "getPet", arguments: { petId: i } },
        }) as Promise<JsonRpcResponse>,
    ),
  );
  return answers.map((answer) => (answer as { result: Record<string, any> }).result);
}

const saw429 = (result: Record<string, any>) => result.isError === true && JSON.stringify(result).includes("429");

test("40 parallel calls, an upstream that refuses past 10 at once: none gets a 429 with the default host cap", async () => {
  const upstream = await crowdedUpstream();
  try {
    const results = await burst({ baseUrl: upstream.url, retries: 0 }, 40);
    assert.is(results.filter(saw429).length, 0);
    assert.ok(results.every((r) => r.isError !== true));
    assert.ok(upstream.max() <= 8, `at most 8 at once, saw ${upstream.max()}`);
  } finally {
    await upstream.close();
  }
});

test("without the host cap the same burst draws 429s (what the cap prevents)", async () => {
  const upstream = await crowdedUpstream();
  try {
    const results = await burst({ baseUrl: upstream.url, retries: 0, hostConcurrency: 40 }, 40);
    assert.ok(results.filter(saw429).length > 0, "some calls see the upstream's 429");
  } finally {
    await upstream.close();
  }
});

/**
 * Runs `calls` exchanges of one key through `queue` at once; each exchange notes when the queue started it,
 * in ms after the calls were made, in start order with its call's index, then runs `onStart` (if any).
 */
async function startTimes(
  queue: UpstreamQueue,
  calls: number,
  onStart?: (call: number) => void,
): Promise<Array<{ call: number; at: number }>> {
  // A fresh turn of the event loop: Node's timers count from the loop's clock, read when the turn began, so
  // a timer set late in a long turn fires early by that much against performance.now().
  await new Promise((resolve) => setTimeout(resolve, 0));
  const before = performance.now();
  const starts: Array<{ call: number; at: number }> = [];
  const exchange = (call: number) => async () => {
    starts.push({ call, at: performance.now() - before });
    onStart?.(call);
  };
  await Promise.all(Array.from({ length: calls }, (_, call) => queue.run(exchange(call), undefined, "api.test")));
  return starts;
}

/** The gaps between consecutive starts, in ms. */
const gaps = (starts: Array<{ at: number }>): number[] => starts.slice(1).map(({ at }, n) => at - starts[n]!.at);

/** Keeps the event loop busy for `ms` (a long synchronous task on the server's thread). */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test("a rate spaces the starts of one key's calls: the n-th starts no sooner than n intervals after the burst", async () => {
  // 20 per second: call n may start 50n ms after the burst at the soonest (10 ms allowed for the clock),
  // and each 50 ms after the one before (2 ms allowed: the queue reads the clock just before the exchange).
  const starts = await startTimes(new UpstreamQueue(10, { rate: 20 }), 6);
  assert.equal(
    starts.map((start) => start.call),
    [0, 1, 2, 3, 4, 5],
    "in call order",
  );
  const times = starts.map((start) => start.at.toFixed(1)).join(", ");
  starts.forEach(({ at }, n) => assert.ok(at >= 50 * n - 10, `start ${n} at ${times} ms`));
  gaps(starts).forEach((gap) => assert.ok(gap >= 48, `starts at ${times} ms`));
  const span = starts.at(-1)!.at - starts[0]!.at;
  assert.ok(span >= 240, `6 starts span ${span.toFixed(1)} ms`);
});

test("a rate spaces every start from the one before it, even after a blocked event loop", async () => {
  // 20 per second: 50 ms from one actual start to the next (2 ms allowed for the clock). The first call
  // blocks the loop for 80 ms, so the second's turn comes late; the third's must still wait 50 ms after it.
  const starts = await startTimes(new UpstreamQueue(10, { rate: 20 }), 6, (call) => call === 0 && block(80));
  const times = starts.map((start) => start.at.toFixed(1)).join(", ");
  assert.equal(
    starts.map((start) => start.call),
    [0, 1, 2, 3, 4, 5],
    "in call order",
  );
  gaps(starts).forEach((gap) => assert.ok(gap >= 48, `starts at ${times} ms`));
  assert.ok(starts[1]!.at >= 78, `the second starts after the blocked 80 ms: ${times} ms`);
});

test("a rate counts from a call's start when the shared cap held it back", async () => {
  // One shared slot, held 120 ms by another host: the first call of "api.test" waits for it, and the
  // second's turn counts from the first's start, not from when the first was made.
  const queue = new UpstreamQueue(1, { rate: 20 });
  const other = queue.run(() => new Promise((resolve) => setTimeout(resolve, 120)), undefined, "other.test");
  const starts = await startTimes(queue, 3);
  await other;
  const times = starts.map((start) => start.at.toFixed(1)).join(", ");
  assert.ok(starts[0]!.at >= 100, `the first waits for the shared slot: ${times} ms`);
  gaps(starts).forEach((gap) => assert.ok(gap >= 48, `starts at ${times} ms`));
});

test("a rated call cancelled while it waits for its turn does not hold up the next one", async () => {
  // 2 per second: the first starts at once, the second waits 500 ms for its turn and is cancelled at 20 ms;
  // the third then starts 500 ms after the first, not 1,000 ms (the cancelled call's turn's end). The wide
  // interval leaves a loaded machine's late timers 400 ms of room between the two.
  const queue = new UpstreamQueue(10, { rate: 2 });
  const controller = new AbortController();
  const before = performance.now();
  const startedAt: number[] = [];
  const exchange = async () => void startedAt.push(performance.now() - before);
  const first = queue.run(exchange, undefined, "h");
  const second = queue.run(exchange, new Cancellation(controller.signal), "h");
  const third = queue.run(exchange, undefined, "h");
  setTimeout(() => controller.abort(new Error("gone")), 20);
  await second.then(
    () => assert.unreachable("a cancelled wait for its turn rejects"),
    (error: Error) => assert.is(error.message, "gone"),
  );
  await Promise.all([first, third]);
  const times = startedAt.map((at) => at.toFixed(1)).join(", ");
  assert.is(startedAt.length, 2, `two starts: ${times} ms`);
  assert.ok(startedAt[1]! - startedAt[0]! >= 498, `starts at ${times} ms`);
  assert.ok(startedAt[1]! < 900, `the third starts on its own turn, not the cancelled call's: ${times} ms`);
});

test("without a rate the same burst starts at once (what the rate changes)", async () => {
  // Two queues without a rate: a key's own cap, and none. All six start in the burst's own turn (no timer
  // between them), far sooner than the 250 ms a rate of 20 per second takes.
  for (const queue of [new UpstreamQueue(10, { perKey: 10 }), new UpstreamQueue(10)]) {
    const starts = await startTimes(queue, 6);
    assert.is(starts.length, 6);
    const last = starts.at(-1)!.at;
    assert.ok(last < 100, `6 starts within ${last.toFixed(1)} ms`);
  }
});

test("a client-side rate reaches the upstream: the last of 6 calls at 20/s arrives 250 ms after the burst", async () => {
  const upstream = await crowdedUpstream();
  try {
    const before = performance.now();
    const results = await burst({ baseUrl: upstream.url, ratePerSecond: 20 }, 6);
    assert.ok(results.every((r) => r.isError !== true));
    assert.is(upstream.starts.length, 6);
    // Only a lower bound, from the burst: a request arrives after the queue started it (the sixth at 250 ms,
    // 10 ms allowed for the timers' clock), however late a new connection is. Without the rate the last
    // arrives within a few ms.
    const last = upstream.starts.at(-1)! - before;
    assert.ok(last >= 240, `the last call arrived ${last.toFixed(0)} ms after the burst`);
  } finally {
    await upstream.close();
  }
});

test("the queue: a key's own cap, the shared cap, a waiting call cancelled; hosts", async () => {
  const queue = new UpstreamQueue(3, { perKey: 1 });
  let running = 0;
  let most = 0;
  const job = async () => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running -= 1;
  };
  await Promise.all([1, 2, 3, 4].map(() => queue.run(job, undefined, "a")));
  assert.is(most, 1, "one at a time for key a");
  most = 0;
  await Promise.all(["a", "b", "c", "d", "e"].map((key) => queue.run(job, undefined, key)));
  assert.is(most, 3, "the shared cap across keys");
  const controller = new AbortController();
  const blocker = queue.run(() => new Promise((resolve) => setTimeout(resolve, 30)), undefined, "x");
  const waiting = queue.run(job, new Cancellation(controller.signal), "x");
  controller.abort(new Error("gone"));
  await waiting.then(
    () => assert.unreachable("a cancelled wait for a slot rejects"),
    (error: Error) => assert.is(error.message, "gone"),
  );
  await blocker;
  const paced = new UpstreamQueue(10, { rate: 1 });
  const cancelled = new AbortController();
  await paced.run(job, undefined, "h");
  const late = paced.run(job, new Cancellation(cancelled.signal), "h");
  cancelled.abort(new Error("gone"));
  await late.then(
    () => assert.unreachable("a cancelled wait for its turn rejects"),
    (error: Error) => assert.is(error.message, "gone"),
  );
  assert.is(hostOf("http://user:pw@API.Example.com:8080/x?y"), "api.example.com:8080");
  assert.is(hostOf("https://h.test"), "h.test");
});

test("a waiting call started by the slot settles with its exchange; a cancellation after its start leaves it to the exchange", async () => {
  const queue = new UpstreamQueue(1);
  let finishFirst!: (value: string) => void;
  const first = queue.run(() => new Promise<string>((resolve) => (finishFirst = resolve)), undefined);
  const controller = new AbortController();
  let finishSecond!: (value: string) => void;
  let started = false;
  const second = queue.run(
    () => ((started = true), new Promise<string>((resolve) => (finishSecond = resolve))),
    new Cancellation(controller.signal),
  );
  assert.is(started, false);
  finishFirst("one");
  assert.is(await first, "one");
  await Promise.resolve();
  assert.is(started, true);
  controller.abort(new Error("too late"));
  finishSecond("two");
  assert.is(await second, "two");
  assert.is(await queue.run(async () => "three", undefined), "three");
});

test.run();
