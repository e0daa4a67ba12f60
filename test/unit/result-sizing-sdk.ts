/**
 * Results sized for a model, end to end in process: a generated tool over a local upstream that
 * answers a 30-item page, called by the official SDK clients (1.x and 2.x), which check every
 * `structuredContent` against the tool's `outputSchema` and refuse a result that does not match.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { main } from "../../runtime/src/cli/main.js";
import { McpServer, type McpServerOptions } from "../../runtime/src/server/server.js";
import { search } from "../../runtime/src/features/search/index.js";
import { sessions } from "../../runtime/src/features/sessions/index.js";
import { state } from "../../runtime/src/features/state/index.js";
import type { HttpHandle } from "../../runtime/src/transport/http.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { charsOfTokens } from "../../runtime/src/upstream/result-tokens.js";
import { binaryLinks, INLINE_BINARY_CHARS } from "../../runtime/src/features/binary-links/index.js";
import { RESULT_LINK_TTL_MS } from "../../runtime/src/server/result-links.js";
import { startUpstream } from "../support/runtime-fixture.js";
import { featureSurfaces } from "../support/factories.js";

const root = new URL("../../../", import.meta.url).pathname;
const BUDGET = 1_500;

const page = Array.from({ length: 30 }, (_, i) => ({
  id: 500 + i,
  number: i + 1,
  title: `Ticket ${i + 1}`,
  state: i % 3 ? "open" : "closed",
  body: `Steps to reproduce ${i}. `.repeat(40),
  closed_at: null,
  reporter: { login: `reporter${i}`, id: 90 + i, avatar_url: `https://example.test/avatars/${i}.png` },
  labels: [{ name: "bug", color: "ff0000" }],
}));
const body = JSON.stringify(page);
const pdf = Buffer.alloc(INLINE_BINARY_CHARS, 7);

interface Result {
  content: Array<{ type: string; text?: string; uri?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}
interface AnyClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: Array<{ text?: string; blob?: string }> }>;
  close(): Promise<void>;
}

const clients: Array<[string, () => { client: AnyClient; transport: (url: URL) => unknown }]> = [
  [
    "SDK 1.x",
    () => ({ client: new ClientV1({ name: "v1", version: "1" }) as AnyClient, transport: (u) => new HttpV1(u) }),
  ],
  [
    "client 2.x",
    () => ({
      client: new ClientV2({ name: "v2", version: "1" }) as unknown as AnyClient,
      transport: (u) => new HttpV2(u),
    }),
  ],
];

test("a 30-item page: within the budget, valid JSON, every item named, the full body linked; _fields exact", async () => {
  const upstream = await startUpstream((request) =>
    request.url.includes("/attachments")
      ? { status: 200, headers: { "content-type": "application/pdf" }, body: pdf.toString("latin1") }
      : { status: 200, headers: { "content-type": "application/json" }, body },
  );
  const { plan } = await generate({ spec: `${root}specs/fixtures/result-sizing.yaml`, planOnly: true });
  const tools = plan.tools.map(toolDefinition);
  const info = { name: "sizing", version: "1.0.0" };
  const argv = ["--http", "--port", "0", "--base-url", upstream.baseUrl, "--result-budget", String(BUDGET)];
  const handle = (await main(info, tools, argv, { features: [binaryLinks] })) as HttpHandle | undefined;
  assert.ok(handle);
  try {
    for (const [label, make] of clients) {
      const { client, transport } = make();
      await client.connect(transport(new URL(handle.url)));
      await client.listTools(); // the SDK caches the output schemas it validates results with

      // The SDK throws when structuredContent does not match the outputSchema: reaching the asserts is the check.
      const result = (await client.callTool({ name: "listTickets", arguments: {} })) as Result;
      const text = result.content[0]!.text!;
      assert.ok(text.length <= charsOfTokens(BUDGET), `${label}: ${text.length} characters`);
      const shown = JSON.parse(text) as Array<{ number: number; title: string }>;
      assert.equal(
        shown.map((item) => `${item.number} ${item.title}`),
        page.map((item) => `${item.number} ${item.title}`),
        `${label}: all 30 items named by number and title`,
      );
      assert.match(result.content[1]!.text!, /Fields left out: .*body/);
      const link = result.content.find((block) => block.type === "resource_link");
      assert.ok(link?.uri, `${label}: a link to the complete body`);
      const read = await client.readResource({ uri: link.uri! });
      assert.is(read.contents[0]!.text, body, `${label}: resources/read returns the body unchanged`);

      const chosen = (await client.callTool({
        name: "listTickets",
        arguments: { _fields: ["number", "title", "reporter.login"] },
      })) as Result;
      const items = JSON.parse(chosen.content[0]!.text!) as unknown[];
      assert.equal(items[4], { number: 5, title: "Ticket 5", reporter: { login: "reporter4" } });
      assert.is(items.length, 30);
      assert.ok(
        chosen.content.every((block) => block.type !== "resource_link"),
        "nothing left out: no link",
      );
      // Required properties left out: the fallback shape, which the SDK accepts.
      assert.ok(
        (chosen.structuredContent as { unexpectedResponse?: unknown }).unexpectedResponse,
        JSON.stringify(chosen.structuredContent).slice(0, 200),
      );

      const unknown = (await client.callTool({ name: "listTickets", arguments: { _fields: ["titel"] } })) as Result;
      assert.is(unknown.isError, true);
      assert.match(unknown.content[0]!.text!, /unknown _fields path\(s\) "titel".*Known paths near them: title/);
      // The input schema shows the paths only when few: the refusal names the result's top-level fields.
      assert.match(unknown.content[0]!.text!, /Top-level fields: [^.]*\bnumber, title\b[^.]*\breporter\b/);

      // A binary body above the inline size: a link, not base64 in the conversation.
      const file = (await client.callTool({ name: "getAttachment", arguments: { id: 1 } })) as Result;
      const fileLink = file.content.find((block) => block.type === "resource_link");
      assert.ok(fileLink && !file.content.some((block) => block.type === "resource"), JSON.stringify(file.content));
      const fileRead = await client.readResource({ uri: fileLink.uri! });
      assert.ok(Buffer.from(fileRead.contents[0]!.blob!, "base64").equals(pdf), `${label}: the file byte for byte`);
      await client.close();
    }
  } finally {
    await handle.close();
    await upstream.close();
  }
});

interface Answer {
  result?: Result & { contents?: Array<{ text: string }> };
  error?: { message: string };
}

/** The fixture's tools in a server in process over an upstream that answers the page; `ask` sends one request. */
async function inProcess(
  extra: Partial<McpServerOptions> = {},
  tune: (tools: ToolDefinition[]) => void = () => {},
  answer = { type: "application/json", text: body },
) {
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": answer.type },
    body: answer.text,
  }));
  const { plan } = await generate({ spec: `${root}specs/fixtures/result-sizing.yaml`, planOnly: true });
  const tools = plan.tools.map(toolDefinition);
  tune(tools);
  const server = new McpServer({
    info: { name: "sizing", version: "1.0.0" },
    tools,
    upstream: { baseUrl: upstream.baseUrl },
    resultBudget: BUDGET,
    ...extra,
  });
  const ask = async (method: string, params: Record<string, unknown>, ctx: Record<string, string> = { scope: "s" }) =>
    (await server.dispatch({ jsonrpc: "2.0", id: 1, method, params }, ctx)) as unknown as Answer;
  return { upstream, ask };
}

test("a result link is the caller's: another OAuth subject or session gets not found", async () => {
  const { upstream, ask } = await inProcess();
  try {
    const alice = { subject: "alice", scope: "session:a" };
    const called = await ask("tools/call", { name: "listTickets", arguments: {} }, alice);
    const uri = called.result!.content.find((block) => block.type === "resource_link")!.uri!;
    assert.is((await ask("resources/read", { uri }, alice)).result!.contents![0]!.text, body);
    for (const other of [
      { subject: "bob", scope: "session:a" },
      { subject: "alice", scope: "session:b" },
    ]) {
      const refused = await ask("resources/read", { uri }, other);
      assert.match(refused.error?.message ?? "", /Resource not found/);
    }
  } finally {
    await upstream.close();
  }
});

test("the link to a shortened body has the upstream's media type: CSV text, a JSON type of the API's own", async () => {
  const csv = Array.from({ length: 2_000 }, (_, i) => `${i},ticket ${i},open`).join("\n");
  for (const [type, text, withSchema] of [
    ["text/csv; charset=utf-8", csv, false],
    ["application/vnd.api+json", body, true],
  ] as const) {
    const { upstream, ask } = await inProcess(
      {},
      (tools) => {
        if (!withSchema) for (const tool of tools) delete tool.outputSchema;
      },
      { type, text },
    );
    try {
      const called = (await ask("tools/call", { name: "listTickets", arguments: {} })).result!;
      const link = called.content.find((block) => block.type === "resource_link") as unknown as {
        uri: string;
        mimeType: string;
      };
      assert.is(link?.mimeType, type, JSON.stringify(called.content.map((block) => block.type)));
      const read = (await ask("resources/read", { uri: link.uri })).result as unknown as {
        contents: Array<{ mimeType: string; text: string }>;
      };
      assert.equal([read.contents[0]!.mimeType, read.contents[0]!.text], [type, text]);
    } finally {
      await upstream.close();
    }
  }
});

test("over HTTP with sessions, another session of the same client address cannot read a result link", async () => {
  const upstream = await startUpstream(() => ({ status: 200, headers: { "content-type": "application/json" }, body }));
  const { plan } = await generate({ spec: `${root}specs/fixtures/result-sizing.yaml`, planOnly: true });
  const argv = [
    "--http",
    "--port",
    "0",
    "--sessions",
    "--base-url",
    upstream.baseUrl,
    "--result-budget",
    String(BUDGET),
  ];
  const handle = (await main({ name: "sizing", version: "1.0.0" }, plan.tools.map(toolDefinition), argv, {
    features: [state, sessions],
  })) as HttpHandle | undefined;
  assert.ok(handle);
  const alice = new ClientV1({ name: "alice", version: "1" });
  const bob = new ClientV1({ name: "bob", version: "1" });
  try {
    const aliceTransport = new HttpV1(new URL(handle.url));
    const bobTransport = new HttpV1(new URL(handle.url));
    await alice.connect(aliceTransport);
    await bob.connect(bobTransport);
    assert.ok(
      aliceTransport.sessionId && bobTransport.sessionId && aliceTransport.sessionId !== bobTransport.sessionId,
    );
    const called = (await alice.callTool({ name: "listTickets", arguments: {} })) as Result;
    const uri = called.content.find((block) => block.type === "resource_link")!.uri!;
    const own = (await alice.readResource({ uri })).contents[0] as unknown as { text: string };
    assert.is(own.text, body);
    const refused = await bob.readResource({ uri }).then(
      () => "read",
      (error: Error) => error.message,
    );
    assert.match(refused, /Resource not found/);
  } finally {
    await alice.close();
    await bob.close();
    await handle.close();
    await upstream.close();
  }
});

test("a result link expires: resources/read after its time is not found, also for its owner", async () => {
  const { upstream, ask } = await inProcess();
  const now = Date.now;
  try {
    const called = await ask("tools/call", { name: "listTickets", arguments: {} });
    const uri = called.result!.content.find((block) => block.type === "resource_link")!.uri!;
    assert.is((await ask("resources/read", { uri })).result!.contents![0]!.text, body);
    const later = now() + RESULT_LINK_TTL_MS + 1_000;
    Date.now = () => later;
    assert.match((await ask("resources/read", { uri })).error?.message ?? "", /Resource not found/);
  } finally {
    Date.now = now;
    await upstream.close();
  }
});

test("_fields that are not a list of paths are refused; a client older than links gets the URI in text", async () => {
  const { upstream, ask } = await inProcess();
  try {
    const clientInfo = { name: "old", version: "1" };
    await ask("initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo });
    for (const wrong of ["title", [7]]) {
      const refused = (await ask("tools/call", { name: "listTickets", arguments: { _fields: wrong } })).result!;
      assert.is(refused.isError, true);
      assert.match(refused.content[0]!.text!, /_fields must be a list of up to 100 paths/);
    }
    // The input schema admits an empty list (no minItems): it selects nothing, so the whole result comes back.
    const whole = (await ask("tools/call", { name: "listTickets", arguments: { _fields: [] } })).result!;
    const plain = (await ask("tools/call", { name: "listTickets", arguments: {} })).result!;
    assert.is(whole.isError, undefined);
    assert.equal(whole.structuredContent, plain.structuredContent);
    const old = (await ask("tools/call", { name: "listTickets", arguments: {} })).result!;
    assert.ok(old.content.every((block) => block.type === "text"));
    const uri = /URI: (result:\/\/\S+)/.exec(old.content.at(-1)!.text!)?.[1];
    assert.ok(uri, old.content.at(-1)!.text);
  } finally {
    await upstream.close();
  }
});

test("_fields and the budget apply on the search surface's call_operation too", async () => {
  const surfaces = ((await search.plugs({} as never)) as Pick<McpServerOptions, "surfaces">).surfaces;
  const { upstream, ask } = await inProcess({ surface: "search", surfaces });
  try {
    const call = async (args: Record<string, unknown>) =>
      (await ask("tools/call", { name: "call_operation", arguments: { name: "listTickets", arguments: args } }))
        .result!;
    const chosen = await call({ _fields: ["number"] });
    assert.equal((JSON.parse(chosen.content[0]!.text!) as unknown[]).slice(0, 2), [{ number: 1 }, { number: 2 }]);
    const shrunk = await call({});
    assert.ok(shrunk.content[0]!.text!.length <= charsOfTokens(BUDGET));
    assert.ok(shrunk.content.some((block) => block.type === "resource_link"));
    const unknown = await call({ _fields: ["nmber"] });
    assert.match(unknown.content[0]!.text!, /Known paths near them: number/);
  } finally {
    await upstream.close();
  }
});

test("a tool's own defaults (x-mcp-fields, x-mcp-result-budget): fields when none are given, its budget over the server's", async () => {
  const { upstream, ask } = await inProcess({}, (tools) => {
    const response = tools.find((tool) => tool.name === "listTickets")!.http.response;
    response.defaultFields = ["number"];
  });
  const roomy = await inProcess({}, (tools) => {
    tools.find((tool) => tool.name === "listTickets")!.http.response.budgetTokens = 1_000_000;
  });
  try {
    const call = async (args: Record<string, unknown>, on = ask) =>
      (await on("tools/call", { name: "listTickets", arguments: args })).result!;
    const byDefault = await call({});
    assert.equal((JSON.parse(byDefault.content[0]!.text!) as unknown[]).slice(0, 2), [{ number: 1 }, { number: 2 }]);
    const chosen = await call({ _fields: ["title"] });
    assert.equal((JSON.parse(chosen.content[0]!.text!) as unknown[])[0], { title: "Ticket 1" });
    // The server's budget (1,500) would shrink this page; the tool's own does not.
    const whole = await call({}, roomy.ask);
    assert.is(whole.content[0]!.text, body);
    assert.ok(whole.content.every((block) => block.type !== "resource_link"));
  } finally {
    await upstream.close();
    await roomy.upstream.close();
  }
});

test("code mode's typed api takes _fields: the script gets the projected value, unbudgeted otherwise", async () => {
  const surfaces = featureSurfaces({ "code-timeout": "10000", "code-memory": "32", "code-max-result": "100000" });
  const { upstream, ask } = await inProcess({ surface: "code", surfaces });
  try {
    const run = async (code: string) =>
      (await ask("tools/call", { name: "execute_code", arguments: { code } })).result! as Result & {
        structuredContent: { result: unknown };
      };
    const ran = await run(
      `const chosen = await api.listTickets({ _fields: ["number", "reporter.login"] });
       const whole = await api.listTickets({});
       return { count: chosen.unexpectedResponse.body.length, fifth: chosen.unexpectedResponse.body[4],
         problem: chosen.unexpectedResponse.problems[0], body: whole.result[4].body.length };`,
    );
    assert.not.ok(ran.isError, JSON.stringify(ran).slice(0, 500));
    // The value is structuredContent: required properties left out put it in the fallback shape's body;
    // without _fields the page comes whole (code is not budgeted: the server's budget here is 1,500 tokens).
    assert.equal(ran.structuredContent.result, {
      count: 30,
      fifth: { number: 5, reporter: { login: "reporter4" } },
      problem: "the chosen fields leave out what the documented shape requires",
      body: page[4]!.body.length,
    });
    const unknown = await run(
      `try { await api.listTickets({ _fields: ["titel"] }); return "ran"; } catch (e) { return String(e.message); }`,
    );
    assert.match(String(unknown.structuredContent.result), /unknown _fields path\(s\) "titel".*title/);
  } finally {
    await upstream.close();
  }
});

test.run();
