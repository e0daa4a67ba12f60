/**
 * Every upstream pagination style through the one cursor/nextCursor contract, against a local
 * upstream that really pages: tools come from the pagination fixture spec via the planner.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { encodeCursor, nextLink } from "../../runtime/src/features/pagination/cursor-paging.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { apiFeatures } from "../support/factories.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/pagination.yaml", import.meta.url));
const ITEMS = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id }));
const SIZE = 3;
let tools: ToolDefinition[];
let base = "";
let close: () => Promise<void>;
const seen: string[] = [];
/** When set, the Link header points at another host. */
let evilLinks = false;

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", base);
  seen.push(`${url.pathname}${url.search}`);
  const q = url.searchParams;
  const json = (body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const slice = (from: number, size = SIZE) => ITEMS.slice(from, from + size);
  switch (url.pathname) {
    case "/api/tokens": {
      const from = Number(q.get("cursor") ?? 0);
      const limit = Number(q.get("limit") ?? SIZE);
      return json({
        items: slice(from, limit),
        meta: { next_cursor: from + limit < ITEMS.length ? String(from + limit) : "" },
      });
    }
    case "/api/charges": {
      const after = q.get("starting_after");
      const from = after ? ITEMS.findIndex((i) => String(i.id) === after) + 1 : 0;
      return json({ object: "list", data: slice(from), has_more: from + SIZE < ITEMS.length });
    }
    case "/api/pages": {
      const page = () =>
        json(
          slice(
            (Number(q.get("page") ?? 1) - 1) * Number(q.get("per_page") ?? SIZE),
            Number(q.get("per_page") ?? SIZE),
          ),
        );
      // One-item pages answer slowly, so a test can cancel a collection between pages.
      if (q.get("per_page") === "1") setTimeout(page, 40);
      else page();
      return;
    }
    case "/api/offsets":
      return json({
        total: ITEMS.length,
        results: slice(Number(q.get("offset") ?? 0), Number(q.get("limit") ?? SIZE)),
      });
    case "/api/linked": {
      const page = Number(q.get("page") ?? 1);
      const more = page * SIZE < ITEMS.length;
      const evil = evilLinks;
      const target = evil
        ? "http://example.invalid/api/linked?page=2"
        : `${base}/api/linked?page=${page + 1}&per_page=${SIZE}`;
      return json(
        slice((page - 1) * SIZE),
        more ? { link: `<${base}/api/linked?page=1>; rel="first", <${target}>; rel="next"` } : {},
      );
    }
    case "/api/odata": {
      const skip = Number(q.get("skip") ?? 0);
      return json({
        value: slice(skip),
        ...(skip + SIZE < ITEMS.length ? { "@odata.nextLink": `/api/odata?skip=${skip + SIZE}` } : {}),
      });
    }
    case "/api/search": {
      const from = q.get("page") ? Number(q.get("page")!.replace("tok-", "")) : 0;
      return json({ data: slice(from), next_page: from + SIZE < ITEMS.length ? `tok-${from + SIZE}` : null });
    }
    case "/api/rows":
      return json({ rows: slice(Number(q.get("p") ?? 0) * SIZE) });
    default:
      res.writeHead(404);
      res.end();
  }
}

test.before(async () => {
  tools = (await generate({ spec })).plan.tools.map(toolDefinition);
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
});
test.after(async () => close());

function makeServer(secret = "test-secret"): McpServer {
  return new McpServer({
    ...apiFeatures,
    info: { name: "paging", version: "1.0.0" },
    tools,
    upstream: { baseUrl: `${base}/api` },
    env: { MCP_CURSOR_SECRET: secret },
  });
}

type Result = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
async function call(server: McpServer, name: string, args: Record<string, unknown>): Promise<Result> {
  const response = (await server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args },
  })) as unknown as { result: Result };
  return response.result;
}

/** Follows nextCursor until the last page (at most 10 calls); returns the ids in order. */
async function collect(
  name: string,
  first: Record<string, unknown>,
  itemsOf: (s: Record<string, unknown>) => unknown[],
): Promise<number[]> {
  const server = makeServer();
  const ids: number[] = [];
  let args = first;
  for (let calls = 0; calls < 10; calls++) {
    const result = await call(server, name, args);
    assert.not.ok(result.isError, JSON.stringify(result));
    ids.push(...itemsOf(result.structuredContent!).map((item) => (item as { id: number }).id));
    const next = result.structuredContent!.nextCursor;
    if (next === undefined) return ids;
    assert.type(next, "string");
    assert.match(result.content[result.content.length - 1]!.text, /call again with cursor = /);
    args = { cursor: next };
  }
  throw new Error("pagination did not end");
}

const all = [1, 2, 3, 4, 5, 6, 7];
const all7 = all;
test("cursor token in a nested field", async () =>
  assert.equal(await collect("listByToken", { limit: 3 }, (s) => s.items as unknown[]), all));
test("Stripe: starting_after + has_more", async () =>
  assert.equal(await collect("listCharges", {}, (s) => s.data as unknown[]), all));
test("page + per_page, root array wrapped as result", async () =>
  assert.equal(await collect("listPages", { per_page: 3 }, (s) => s.result as unknown[]), all));
test("offset + limit", async () =>
  assert.equal(await collect("listOffsets", { limit: 3 }, (s) => s.results as unknown[]), all));
test("Link header rel=next", async () =>
  assert.equal(await collect("listLinked", {}, (s) => s.result as unknown[]), all));
test("next URL in the body (relative)", async () =>
  assert.equal(await collect("listOdata", {}, (s) => s.value as unknown[]), all));
test("a string page token with next_page (Stripe search)", async () =>
  assert.equal(await collect("searchTokens", {}, (s) => s.data as unknown[]), all));
test("x-mcp-pagination extension, first page 0", async () =>
  assert.equal(await collect("listRows", {}, (s) => s.rows as unknown[]), all));

test("the contract is in the schemas: cursor input, nextCursor output; non-lists do not page", () => {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const pages = byName.get("listPages")!;
  assert.equal(pages.inputSchema.properties!.cursor, {
    type: "string",
    description: "nextCursor of the previous result.",
  });
  assert.equal((pages.outputSchema!.properties as Record<string, { type: string }>).nextCursor!.type, "string");
  assert.is(byName.get("getSingle")!.http.pagination, undefined);
  assert.is(byName.get("getSingle")!.inputSchema.properties!.cursor, undefined);
});

test("a cursor to another origin is never issued; forged, tampered and foreign cursors are refused", async () => {
  const server = makeServer();
  evilLinks = true;
  const evil = await call(server, "listLinked", {}).finally(() => (evilLinks = false));
  assert.not.ok(evil.isError);
  assert.is(evil.structuredContent!.nextCursor, undefined, "a Link to another host gives no cursor");
  const first = await call(server, "listOffsets", { limit: 3 });
  const cursor = first.structuredContent!.nextCursor as string;
  const tampered = cursor.slice(0, -2) + (cursor.endsWith("AA") ? "BB" : "AA");
  const before = seen.length;
  assert.match(
    (await call(server, "listOffsets", { cursor: tampered })).content[0]!.text,
    /not a cursor this server issued/,
  );
  assert.match((await call(server, "listPages", { cursor })).content[0]!.text, /belongs to tool listOffsets/);
  assert.match(
    (await call(makeServer("another-secret"), "listOffsets", { cursor })).content[0]!.text,
    /not a cursor this server issued/,
  );
  const signedElsewhere = encodeCursor(
    { t: "listOdata", v: "http://example.invalid/api/odata?skip=3" },
    Buffer.from("test-secret"),
  );
  assert.match((await call(server, "listOdata", { cursor: signedElsewhere })).content[0]!.text, /another origin/);
  assert.is(seen.length, before, "no refused cursor reached the upstream");
});

test("maxPages collects several pages in one call, bounded, and continues from where it stopped", async () => {
  const server = makeServer();
  const before = seen.length;
  const two = await call(server, "listOffsets", { limit: 3, maxPages: 2 });
  assert.not.ok(two.isError);
  assert.equal(
    (two.structuredContent!.results as Array<{ id: number }>).map((i) => i.id),
    [1, 2, 3, 4, 5, 6],
  );
  assert.is(seen.length - before, 2, "two upstream requests");
  assert.match(two.content[1]!.text, /^6 items from 2 page\(s\)\. More results: call again with cursor = /);
  const rest = await call(server, "listOffsets", { cursor: two.structuredContent!.nextCursor, limit: 3 });
  assert.equal(
    (rest.structuredContent!.results as Array<{ id: number }>).map((i) => i.id),
    [7],
  );
  assert.is(rest.structuredContent!.nextCursor, undefined);
  const all = await call(server, "listLinked", { maxPages: 10 });
  assert.equal(
    (all.structuredContent!.result as Array<{ id: number }>).map((i) => i.id),
    all7,
  );
  assert.is(all.structuredContent!.nextCursor, undefined, "stops at the last page, not at maxPages");
  const tokens = await call(server, "listByToken", { limit: 2, maxPages: 3 });
  assert.equal(
    (tokens.structuredContent!.items as Array<{ id: number }>).map((i) => i.id),
    [1, 2, 3, 4, 5, 6],
  );
});

test("maxPages collects every style in one call", async () => {
  const server = makeServer();
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["listByToken", { limit: 3 }, "items"],
    ["listCharges", {}, "data"],
    ["listPages", { per_page: 3 }, "result"],
    ["listOffsets", { limit: 3 }, "results"],
    ["listLinked", {}, "result"],
    ["listOdata", {}, "value"],
    ["searchTokens", {}, "data"],
    ["listRows", {}, "rows"],
  ];
  for (const [name, args, key] of cases) {
    const result = await call(server, name, { ...args, maxPages: 10 });
    assert.not.ok(result.isError, name);
    assert.equal(
      (result.structuredContent![key] as Array<{ id: number }>).map((i) => i.id),
      all7,
      name,
    );
    assert.is(result.structuredContent!.nextCursor, undefined, name);
  }
});

test("collecting pages reports progress that only grows, and a cancelled call stops collecting", async () => {
  const server = makeServer();
  const progress: number[] = [];
  await server.handle(
    {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "listPages", arguments: { per_page: 3, maxPages: 5 }, _meta: { progressToken: "p1" } },
    },
    { notify: (message) => progress.push(Number((message.params as { progress: number }).progress)) },
  );
  assert.equal(progress, [0, 1, 2, 3], "start, then one notification per page (3 pages exist)");
  const controller = new AbortController();
  const before = seen.length;
  const pending = server.handle(
    {
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: { name: "listPages", arguments: { per_page: 1, maxPages: 10 } },
    },
    { signal: controller.signal },
  );
  // Cancel once the collection is under way (two pages requested), not before it starts.
  for (let waited = 0; seen.length - before < 2 && waited < 5_000; waited += 5)
    await new Promise((resolve) => setTimeout(resolve, 5));
  assert.is(seen.length - before, 2);
  controller.abort();
  assert.is(await pending, undefined, "no answer for a cancelled request");
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is(seen.length - before, 2, "no page is requested after the cancellation (7 exist)");
});

test("maxPages is offered only where the items can be found, and is bounded in the schema", () => {
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.equal(byName.get("listOffsets")!.inputSchema.properties!.maxPages, {
    type: "integer",
    minimum: 1,
    maximum: 10,
    description: "Pages to fetch and merge into one result (default 1).",
  });
  assert.is(byName.get("getSingle")!.inputSchema.properties!.maxPages, undefined);
});

test("Link header parsing", () => {
  assert.is(nextLink('<https://a/x?page=2>; rel="next", <https://a/x?page=5>; rel="last"'), "https://a/x?page=2");
  assert.is(nextLink('<https://a/x?page=1>; rel="prev first"'), undefined);
  assert.is(nextLink('<https://a/y>; rel="prev next"'), "https://a/y");
  assert.is(nextLink(undefined), undefined);
});

test.run();
