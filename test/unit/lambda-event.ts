/**
 * The Lambda target's adapter (runtime/src/features/lambda/): API Gateway HTTP API / function URL
 * events (payload 2.0) become Web requests for the fetch handler, and its responses become buffered
 * results (text or base64 bodies, cookies apart) or a response stream written event by event.
 */
import { PassThrough, Writable } from "node:stream";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  requestFromEvent,
  resultFromResponse,
  type LambdaHttpEvent,
} from "../../runtime/src/features/lambda/lambda-event.js";
import {
  bufferedHandler,
  streamingHandler,
  type LambdaStreaming,
  type StreamingLambdaHandler,
} from "../../runtime/src/features/lambda/lambda-handler.js";
import { lambda } from "../../runtime/src/features/lambda/index.js";
import { serveFetch } from "../../runtime/src/features/fetch/index.js";
import { info, sampleTools, startUpstream } from "../support/runtime-fixture.js";

/** An HTTP API event as API Gateway sends it, with `overrides`. */
function event(overrides: Partial<LambdaHttpEvent> = {}): LambdaHttpEvent {
  return {
    version: "2.0",
    rawPath: "/mcp",
    rawQueryString: "",
    headers: { host: "abc.execute-api.eu-west-1.amazonaws.com", "content-type": "application/json" },
    requestContext: { domainName: "abc.execute-api.eu-west-1.amazonaws.com", http: { method: "POST" } },
    body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    isBase64Encoded: false,
    ...overrides,
  };
}

test("an event becomes a request: URL from Host, path and query as sent, headers, text body", async () => {
  const request = requestFromEvent(
    event({ rawPath: "/mcp", rawQueryString: "surface=search&x=%20", headers: { host: "h.example", "x-a": "1,2" } }),
  );
  assert.is(request.method, "POST");
  assert.is(request.url, "https://h.example/mcp?surface=search&x=%20");
  assert.is(request.headers.get("x-a"), "1,2");
  assert.is(await request.text(), '{"jsonrpc":"2.0","id":1,"method":"ping"}');
});

test("a local emulator's plain-HTTP host keeps its scheme (X-Forwarded-Proto) and a missing Host falls back to the API's domain", () => {
  const local = requestFromEvent(event({ headers: { host: "127.0.0.1:3000", "x-forwarded-proto": "http" } }));
  assert.is(local.url, "http://127.0.0.1:3000/mcp");
  const bare = requestFromEvent(event({ headers: {} }));
  assert.is(bare.url, "https://abc.execute-api.eu-west-1.amazonaws.com/mcp");
});

test("a base64 body is decoded to its bytes; a GET has no body; cookies join into one Cookie header", async () => {
  const bytes = Buffer.from([0, 1, 2, 250, 255]);
  const binary = requestFromEvent(event({ body: bytes.toString("base64"), isBase64Encoded: true }));
  assert.equal(Buffer.from(await binary.arrayBuffer()), bytes);
  const get = requestFromEvent(
    event({ requestContext: { http: { method: "get" } }, body: "ignored", cookies: ["a=1", "b=2"] }),
  );
  assert.is(get.method, "GET");
  assert.is(get.body, null);
  assert.is(get.headers.get("cookie"), "a=1; b=2");
});

test("the request's signal aborts shortly before the invocation's deadline", async () => {
  const request = requestFromEvent(event(), { getRemainingTimeInMillis: () => 520 });
  assert.not.ok(request.signal.aborted);
  await new Promise((done) => setTimeout(done, 80));
  assert.ok(request.signal.aborted);
  const unbounded = requestFromEvent(event());
  assert.not.ok(unbounded.signal.aborted);
});

test("a JSON response is a text result; Set-Cookie headers become cookies", async () => {
  const headers = new Headers({ "content-type": "application/json", "mcp-session-id": "s1" });
  headers.append("set-cookie", "a=1; Path=/");
  headers.append("set-cookie", "b=2; HttpOnly");
  const result = await resultFromResponse(new Response('{"ok":true}', { status: 201, headers }));
  assert.equal(result, {
    statusCode: 201,
    headers: { "content-type": "application/json", "mcp-session-id": "s1" },
    cookies: ["a=1; Path=/", "b=2; HttpOnly"],
    body: '{"ok":true}',
    isBase64Encoded: false,
  });
});

test("a binary or untyped response body is base64; an empty one is empty text; an event stream is text", async () => {
  const png = await resultFromResponse(
    new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } }),
  );
  assert.equal([png.body, png.isBase64Encoded], [Buffer.from([137, 80, 78, 71]).toString("base64"), true]);
  const empty = await resultFromResponse(new Response(null, { status: 202 }));
  assert.equal([empty.statusCode, empty.body, empty.isBase64Encoded], [202, "", false]);
  const sse = await resultFromResponse(
    new Response("event: message\ndata: {}\n\n", { headers: { "content-type": "text/event-stream" } }),
  );
  assert.equal([sse.body, sse.isBase64Encoded], ["event: message\ndata: {}\n\n", false]);
});

test("the buffered handler hands the fetch handler the event's request and returns its response as a result", async () => {
  const seen: string[] = [];
  const handler = bufferedHandler(async (request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`);
    return Response.json({ echoed: true });
  });
  const result = await handler(event({ body: "{}" }));
  assert.equal(seen, ["POST /mcp {}"]);
  assert.is(result.statusCode, 200);
  assert.equal(JSON.parse(result.body), { echoed: true });
});

/** A stand-in for the Lambda runtime's `awslambda`: records the head and what the handler writes. */
function fakePlatform(): LambdaStreaming & { head?: unknown; wrapped?: StreamingLambdaHandler } {
  const platform: LambdaStreaming & { head?: unknown; wrapped?: StreamingLambdaHandler } = {
    streamifyResponse(handler) {
      platform.wrapped = handler;
      return handler;
    },
    HttpResponseStream: {
      from(stream, head) {
        platform.head = head;
        return stream;
      },
    },
  };
  return platform;
}

test("the streaming handler writes the head first, then each chunk of the body as the server writes it", async () => {
  const platform = fakePlatform();
  let push: ((text: string) => void) | undefined;
  let close: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => controller.enqueue(new TextEncoder().encode(text));
      close = () => controller.close();
    },
  });
  const handler = streamingHandler(
    async () => new Response(body, { headers: { "content-type": "text/event-stream", "set-cookie": "s=1" } }),
    platform,
  );
  assert.is(handler, platform.wrapped);
  const chunks: string[] = [];
  const sink = new PassThrough();
  sink.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const done = platform.wrapped!(event(), sink);
  await new Promise((resolve) => setTimeout(resolve, 10));
  push!("data: 1\n\n");
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(chunks, ["data: 1\n\n"], "the first event arrives before the stream ends");
  push!("data: 2\n\n");
  close!();
  await done;
  assert.equal(chunks, ["data: 1\n\n", "data: 2\n\n"]);
  assert.equal(platform.head, { statusCode: 200, headers: { "content-type": "text/event-stream" }, cookies: ["s=1"] });
});

test("the streaming handler ends an empty answer, and is undefined where the runtime offers no streaming", async () => {
  const platform = fakePlatform();
  streamingHandler(async () => new Response(null, { status: 202 }), platform);
  let finished = false;
  const sink = new Writable({
    write(_chunk, _encoding, next) {
      next();
    },
  });
  sink.on("finish", () => (finished = true));
  await platform.wrapped!(event(), sink);
  assert.ok(finished);
  assert.equal(platform.head, { statusCode: 202, headers: {}, cookies: [] });
  assert.is(
    streamingHandler(async () => new Response(null), undefined),
    undefined,
  );
});

test("the Lambda entry's whole path: an HTTP API event calls a tool through serveFetch, upstream through got (feature lambda), not fetch", async () => {
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id":42,"name":"Rex"}',
  }));
  try {
    const handler = bufferedHandler(
      serveFetch(info, sampleTools(), { env: { API_BASE_URL: upstream.baseUrl }, features: [lambda] }),
    );
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "getPet", arguments: { petId: 42 } } };
    const result = await handler(
      event({
        headers: {
          host: "abc.lambda-url.eu-west-1.on.aws",
          "content-type": "application/json",
          accept: "application/json",
        },
        body: Buffer.from(JSON.stringify(call)).toString("base64"),
        isBase64Encoded: true,
      }),
    );
    assert.is(result.statusCode, 200, result.body);
    assert.equal(JSON.parse(result.body).result.structuredContent, { id: 42, name: "Rex" });
    assert.is(upstream.received[0]!.url, "/api/v1/pets/42");
    // The platform's fetch marks its requests (sec-fetch-mode); got does not.
    assert.is(upstream.received[0]!.headers["sec-fetch-mode"], undefined);
  } finally {
    await upstream.close();
  }
});

test.run();
