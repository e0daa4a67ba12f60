/**
 * Feature apps (MCP Apps views): which view each kind of operation gets, the links and resources
 * served to a client that declares the extension, nothing new for one that does not (byte for
 * byte), and spec text that cannot escape the page it is written into.
 */
import { createHash } from "node:crypto";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { AppViews, UI_EXTENSION, viewUri } from "../../runtime/src/features/apps/app-views.js";
import { apps } from "../../runtime/src/features/apps/index.js";
import { clients } from "../../runtime/src/features/clients/index.js";
import { runtimeProfiles } from "../../generator/shared/profiles.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";
import { chooseView } from "../../runtime/src/features/apps/view-choice.js";
import { identifyingValue, isLinkName, isReferenceName } from "../../runtime/src/features/apps/field-names.js";
import { fallbackNotice, shownData } from "../../runtime/src/features/apps/result-notice.js";
import { shapeResult } from "../../runtime/src/upstream/result-shape.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import {
  VIEW_MIME_TYPE,
  escapeHtml,
  scriptJson,
  viewPage,
  viewScript,
} from "../../runtime/src/features/apps/view-page.js";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { SearchMetaTools } from "../../runtime/src/features/search/meta-tools.js";
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  getUiCapability,
} from "@modelcontextprotocol/ext-apps/server";
import { info, jsonAnswer, startUpstream } from "../support/runtime-fixture.js";

const pet = {
  type: "object",
  properties: {
    name: { type: "string" },
    tag: { type: ["string", "null"] },
    status: { $ref: "#/$defs/PetStatus" },
    id: { type: "integer" },
    owner: { type: "object", properties: { login: { type: "string" } } },
    photo_url: { type: "string" },
  },
  required: ["name", "id"],
};
const $defs = { PetStatus: { type: "string", enum: ["available", "adopted"] } };
const fallback = { properties: { unexpectedResponse: {} }, required: ["unexpectedResponse"] };
const response = { accept: ["application/json"], fallbackKey: "unexpectedResponse" };

/** A petstore-like API: a paged list, one record, a create, a delete, an action without body, a text result. */
function tools(): ToolDefinition[] {
  return [
    {
      name: "listPets",
      title: "List pets",
      description: "List pets",
      inputSchema: { type: "object", properties: { cursor: { type: "string" } }, $defs } as never,
      outputSchema: {
        type: "object",
        anyOf: [{ properties: { result: { type: "array", items: pet } }, required: ["result"] }, fallback],
      } as never,
      http: {
        method: "get",
        path: "/pets",
        parameters: [],
        response: { ...response, wrapKey: "result" },
        pagination: { style: "cursor", cursorArgument: "cursor", targetArgument: "cursor", nextPath: ["next"] },
      },
    },
    {
      name: "getPet",
      description: "Get a pet",
      inputSchema: { type: "object", properties: { petId: { type: "integer" } }, required: ["petId"], $defs } as never,
      outputSchema: { type: "object", anyOf: [pet, fallback] } as never,
      http: { method: "get", path: "/pets/{petId}", parameters: [], response },
    },
    {
      name: "createPet",
      title: "Add a pet",
      description: "Add a pet",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "The pet's name." },
          status: { $ref: "#/$defs/PetStatus" },
          age: { type: "integer", minimum: 0 },
          tags: { type: "array", items: { type: "string" } },
          owner: { type: "object", properties: {} },
          milestone: { oneOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
          _fields: { type: "array", items: { type: "string" } },
        },
        required: ["name"],
        $defs,
      } as never,
      outputSchema: { type: "object", anyOf: [pet, fallback] } as never,
      annotations: { destructiveHint: false },
      http: {
        method: "post",
        path: "/pets",
        parameters: [],
        body: { kind: "properties", properties: { name: "name" }, mediaType: "application/json", required: true },
        response: { ...response, fieldsArgument: "_fields" },
      },
    },
    {
      name: "deletePet",
      description: "Delete a pet",
      inputSchema: { type: "object", properties: { petId: { type: "integer" } }, required: ["petId"] },
      annotations: { destructiveHint: true },
      http: { method: "delete", path: "/pets/{petId}", parameters: [], response },
    },
    {
      name: "feedPet",
      description: "Feed a pet (no body)",
      inputSchema: { type: "object", properties: {} },
      http: { method: "post", path: "/pets/{petId}/feed", parameters: [], response },
    },
    {
      name: "getPetText",
      description: "A text result",
      inputSchema: { type: "object", properties: {} },
      http: { method: "get", path: "/pets/text", parameters: [], response: { accept: ["text/plain"] } },
    },
  ];
}
const byName = (name: string): ToolDefinition => tools().find((tool) => tool.name === name)!;

test("a list of records is a table: identifying columns first, nested fields and links left to the details", () => {
  const view = chooseView(byName("listPets"))!;
  assert.is(view.kind, "table");
  assert.equal(view.rows, ["result"]);
  assert.equal(
    view.columns!.map((column) => column.key),
    ["name", "id", "status", "tag", "photo_url"],
  );
  assert.is(view.cursorArgument, "cursor");
  assert.is(view.fallbackKey, "unexpectedResponse", "a response that misses its shape is still shown, from there");
});

test("a compacted list schema (no item types) takes its columns from the result's field list", () => {
  const tool = byName("listPets");
  tool.outputSchema = { type: "object", anyOf: [{ properties: { result: { type: "array" } } }, fallback] } as never;
  tool.http.response.fields = [
    "html_url",
    "number",
    "title",
    "user",
    "user.login",
    "labels[]",
    "labels[].name",
    "state",
  ];
  const view = chooseView(tool)!;
  assert.is(view.kind, "table");
  assert.equal(
    view.columns!.map((column) => column.key),
    ["number", "title", "state", "html_url"],
  );
});

test("a list inside the body (the pages' items path) is a table whose columns come from that list's fields", () => {
  const tool = byName("listPets");
  delete tool.http.response.wrapKey;
  tool.http.pagination!.itemsPath = ["items"];
  tool.outputSchema = {
    type: "object",
    anyOf: [{ properties: { items: { type: "array" }, meta: { type: "object" } } }, fallback],
  } as never;
  tool.http.response.fields = ["items[]", "meta", "items[].id", "items[].name", "items[].owner", "items[].owner.login"];
  const view = chooseView(tool)!;
  assert.equal(view.rows, ["items"]);
  assert.equal(
    view.columns!.map((column) => column.key),
    ["id", "name"],
  );
});

test("field names: identifying values, links and references", () => {
  assert.is(identifyingValue({ id: 7, name: "Rex", owner: { login: "octo" } }), "Rex");
  assert.is(identifyingValue({ login: "octo", id: 1 }), "octo");
  assert.is(identifyingValue({ title: { nested: true }, number: 3 }), "3");
  assert.is(identifyingValue({ other: "x" }), undefined);
  assert.ok(isLinkName("html_url") && isLinkName("avatarUrl") && isLinkName("url") && !isLinkName("curly"));
  assert.ok(
    isReferenceName("user_id") && isReferenceName("ownerId") && !isReferenceName("id") && !isReferenceName("paid"),
  );
});

test("one record is a card; a change with a JSON body and a DELETE are forms; others get no view", () => {
  assert.is(chooseView(byName("getPet"))!.kind, "card");
  const create = chooseView(byName("createPet"))!;
  assert.is(create.kind, "form");
  assert.is(create.destructive, false);
  const remove = chooseView(byName("deletePet"))!;
  assert.is(remove.kind, "form");
  assert.is(remove.destructive, true);
  assert.equal(remove.fields, [{ name: "petId", type: "integer", required: true }]);
  assert.is(chooseView(byName("feedPet")), undefined);
  assert.is(chooseView(byName("getPetText")), undefined);
});

test("a form's inputs: types, enums from $defs, bounds, lists, JSON, help; the fields argument left out", () => {
  const fields = chooseView(byName("createPet"))!.fields!;
  assert.equal(
    fields.map((field) => [field.name, field.type, field.required]),
    [
      ["name", "string", true],
      ["status", "string", false],
      ["age", "integer", false],
      ["tags", "list", false],
      ["owner", "json", false],
      ["milestone", "string", false],
    ],
  );
  assert.is(fields[0]!.description, "The pet's name.");
  assert.equal(fields[1]!.enum, ["available", "adopted"]);
  assert.is(fields[2]!.minimum, 0);
});

/** A server over tools(), with the apps feature's views when `views` (its script a stand-in). */
function server(views: boolean, script = "document.title = 'view';"): McpServer {
  return new McpServer({
    info,
    tools: tools(),
    upstream: { baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 },
    ...(views && { toolViews: (operations) => new AppViews(operations, () => script) }),
  });
}
const DECLARES = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };

/** The responses of a legacy session that declared `capabilities`, to each request in turn. */
async function legacy(
  target: McpServer,
  capabilities: Record<string, unknown>,
  requests: Array<[string, Record<string, unknown>]>,
): Promise<JsonRpcResponse[]> {
  await target.handle({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "t", version: "1" } },
  });
  const responses: JsonRpcResponse[] = [];
  for (const [index, [method, params]] of requests.entries())
    responses.push((await target.handle({ jsonrpc: "2.0", id: index + 1, method, params }))!);
  return responses;
}
const resultOf = (response: JsonRpcResponse): Record<string, any> => {
  assert.ok("result" in response, JSON.stringify(response));
  return (response as { result: Record<string, any> }).result;
};

test("a client that declares the extension: tools link their views, resources list and read them with CSP", async () => {
  const [list, resources, read] = await legacy(server(true), DECLARES, [
    ["tools/list", {}],
    ["resources/list", {}],
    ["resources/read", { uri: "ui://views/table/listPets" }],
  ]);
  const listed = resultOf(list!).tools as Array<Record<string, any>>;
  assert.equal(listed.find((tool) => tool.name === "listPets")!._meta, {
    ui: { resourceUri: "ui://views/table/listPets", visibility: ["model", "app"] },
    "ui/resourceUri": "ui://views/table/listPets",
  });
  assert.is(listed.find((tool) => tool.name === "feedPet")!._meta, undefined);
  const uris = (resultOf(resources!).resources as Array<{ uri: string; mimeType: string }>)
    .filter((resource) => resource.uri.startsWith("ui://"))
    .map((resource) => [resource.uri, resource.mimeType]);
  assert.equal(uris, [
    ["ui://views/table/listPets", VIEW_MIME_TYPE],
    ["ui://views/card/getPet", VIEW_MIME_TYPE],
    ["ui://views/form/createPet", VIEW_MIME_TYPE],
    ["ui://views/form/deletePet", VIEW_MIME_TYPE],
  ]);
  const [contents] = resultOf(read!).contents as Array<Record<string, any>>;
  assert.is(contents!.mimeType, VIEW_MIME_TYPE);
  assert.equal(contents!._meta.ui.csp, { connectDomains: [], resourceDomains: [], frameDomains: [] });
  const hash = createHash("sha256").update("document.title = 'view';").digest("base64");
  assert.ok(contents!.text.includes(`script-src 'sha256-${hash}'`), "the page's CSP allows its script by hash");
  assert.ok(contents!.text.includes("default-src 'none'"));
  assert.ok(contents!.text.includes("<script>document.title = 'view';</script>"));
});

test("the extension's identifier, MIME type and capability are the ones its package reads", () => {
  assert.is(UI_EXTENSION, EXTENSION_ID);
  assert.is(VIEW_MIME_TYPE, RESOURCE_MIME_TYPE);
  assert.is(RESOURCE_URI_META_KEY, "ui/resourceUri");
  assert.equal(getUiCapability(DECLARES as never)?.mimeTypes, [RESOURCE_MIME_TYPE]);
});

test("modern requests declare the extension per request", async () => {
  const response = await server(true).handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": DECLARES,
      },
    },
  });
  const listed = resultOf(response!).tools as Array<Record<string, any>>;
  assert.is(listed.find((tool) => tool.name === "createPet")!._meta.ui.resourceUri, "ui://views/form/createPet");
});

test("a client without the extension (or another MIME type) gets byte-identical lists to a server without views", async () => {
  const requests: Array<[string, Record<string, unknown>]> = [
    ["tools/list", {}],
    ["resources/list", {}],
  ];
  const plain = JSON.stringify(await legacy(server(false), {}, requests));
  assert.is(JSON.stringify(await legacy(server(true), {}, requests)), plain);
  const other = { extensions: { [UI_EXTENSION]: { mimeTypes: ["text/uri-list"] } } };
  assert.is(JSON.stringify(await legacy(server(true), other, requests)), plain);
  assert.not.ok(plain.includes("ui://"));
});

test("a result shortened to its budget keeps the table's columns for a client that shows the table", async () => {
  const pets = Array.from({ length: 30 }, (_, i) => ({
    id: i + 1,
    name: `pet${i + 1}`,
    homepage: `https://pets.example.test/${i + 1}/home`,
    notes: "n".repeat(150),
    colour: `colour number ${i}`,
    breed: `breed number ${i}`,
    status: i % 2 ? "available" : "adopted",
    tag: `tag ${i} ${"x".repeat(20)}`,
  }));
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(pets),
  }));
  try {
    const served = (views: boolean) =>
      new McpServer({
        info,
        tools: tools(),
        upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
        resultBudget: 1_300,
        ...(views && { toolViews: (operations) => new AppViews(operations, () => "") }),
      });
    const rows = async (target: McpServer, capabilities: Record<string, unknown>) => {
      const [called] = await legacy(target, capabilities, [["tools/call", { name: "listPets", arguments: {} }]]);
      const result = resultOf(called!);
      assert.match(result.content[1].text, /Shortened to fit the result budget/);
      const structured = result.structuredContent as Record<string, any>;
      return (structured.result ?? structured.unexpectedResponse.body) as Array<Record<string, unknown>>;
    };
    const columns = chooseView(byName("listPets"))!.columns!.map((column) => column.key);
    assert.ok(columns.includes("status") && columns.includes("tag"), columns.join());
    // A model's client (no extension), or a server without views: the fields that come first fill the room.
    for (const plain of [await rows(served(true), {}), await rows(served(false), DECLARES)]) {
      assert.is(plain.length, 30);
      const others = (pet: Record<string, unknown>) => Object.keys(pet).filter((key) => !columns.includes(key));
      assert.ok(
        plain.every((pet) => pet.tag === undefined && others(pet).length > 0),
        JSON.stringify(plain[0]),
      );
    }
    // A client that shows the table: every row carries every column's value.
    const shown = await rows(served(true), DECLARES);
    assert.equal(
      shown.map((pet) => columns.map((key) => pet[key])),
      pets.map((pet) => columns.map((key) => (pet as Record<string, unknown>)[key])),
    );
  } finally {
    await upstream.close();
  }
});

test("a view tells a list the budget shortened from a response that did not match, by the fallback's reason", () => {
  const validator = new SchemaValidator();
  // Each pet requires its notes: a budget that leaves them out puts the page in the fallback shape.
  const noted = { ...pet, required: ["name", "id", "notes"] };
  const tool: ToolDefinition = {
    ...byName("listPets"),
    outputSchema: {
      type: "object",
      anyOf: [{ properties: { result: { type: "array", items: noted } }, required: ["result"] }, fallback],
      $defs,
    } as never,
  };
  const spec = chooseView(tool)!;
  const pets = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `pet${i + 1}`, notes: "n".repeat(150) }));
  const answer = (body: unknown) => jsonAnswer(tool, body, validator);
  // Shortened by the budget: the rows shown, how many of how many, and how to get the rest; no "did not match".
  const shortened = shapeResult(tool, answer(pets), { budgetTokens: 500 }, validator).result;
  const { data, notice } = shownData(shortened, spec.fallbackKey);
  const rows = data as unknown[];
  assert.ok(rows.length > 0 && rows.length < 30, String(rows.length));
  assert.is(
    notice,
    `Shortened to fit the result's size budget: ${rows.length} of 30 items are shown; ask for a smaller page for the rest.`,
  );
  // The API answered otherwise (no notes at all): today's notice, the body as received.
  const unmatched = answer(pets.map(({ notes: _notes, ...rest }) => rest));
  const received = shownData(unmatched, spec.fallbackKey);
  assert.is(received.notice, "The response did not match its documented shape: shown as received.");
  assert.is((received.data as unknown[]).length, 30);
  // A result in the documented shape, and an error, carry no notice.
  assert.equal(shownData(answer(pets), spec.fallbackKey), { data: { result: pets } });
  assert.is(shownData({ ...shortened, isError: true }, spec.fallbackKey).notice, undefined);
});

test("the fallback's notices: fields left out by the budget, the chosen fields, an older server's fallback", () => {
  assert.is(
    fallbackNotice({ reason: "budget", body: [] }),
    "Shortened to fit the result's size budget: some fields or long values are left out; ask for fewer fields to see them whole.",
  );
  assert.is(
    fallbackNotice({ reason: "fields", body: [], items: { shown: 1, total: 2 } }),
    "Shown with the chosen fields, which leave out some that its documented shape requires. " +
      "Shortened to fit the result's size budget: 1 of 2 items is shown; ask for a smaller page for the rest.",
  );
  // A response that did not match and was then shortened says both.
  assert.is(
    fallbackNotice({ reason: "response", body: [], items: { shown: 3, total: 30 } }),
    "The response did not match its documented shape: shown as received. " +
      "Shortened to fit the result's size budget: 3 of 30 items are shown; ask for a smaller page for the rest.",
  );
  // No reason (a server before the marker), or one this view does not know: shown as received.
  for (const reason of [undefined, "other"])
    assert.is(
      fallbackNotice({ reason, body: {}, items: "12" }),
      "The response did not match its documented shape: shown as received.",
    );
});

test("on the search surface call_operation links the view that shows each call in the operation's own view", async () => {
  const onSearch = (views: boolean) =>
    new McpServer({
      info,
      tools: tools(),
      upstream: { baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 },
      surface: "search",
      surfaces: { search: (context) => new SearchMetaTools(context) },
      ...(views && {
        toolViews: (operations, meta) => new AppViews(operations, () => "void 0", meta),
      }),
    });
  const [list, read] = await legacy(onSearch(true), DECLARES, [
    ["tools/list", {}],
    ["resources/read", { uri: "ui://views/operation/call_operation" }],
  ]);
  const listed = resultOf(list!).tools as Array<Record<string, any>>;
  assert.equal(
    listed.map((tool) => [tool.name, tool._meta?.ui?.resourceUri]),
    [
      ["search_operations", undefined],
      ["describe_operation", undefined],
      ["call_operation", "ui://views/operation/call_operation"],
    ],
  );
  assert.equal(listed[2]!._meta.ui.visibility, ["model", "app"], "the view calls call_operation for pages and forms");
  const [contents] = resultOf(read!).contents as Array<Record<string, any>>;
  assert.is(contents!.mimeType, VIEW_MIME_TYPE);
  const json = /<script type="application\/json" id="mcp-view-spec">([^<]*)<\/script>/.exec(contents!.text)![1]!;
  const spec = JSON.parse(json) as Record<string, any>;
  assert.is(spec.kind, "operation");
  assert.equal(spec.operationCall, { nameArgument: "name", argumentsArgument: "arguments" });
  // Each operation's own view, as its tool links it on surface all.
  assert.equal(Object.keys(spec.views), ["listPets", "getPet", "createPet", "deletePet"]);
  assert.equal(spec.views.listPets, chooseView(byName("listPets")));
  // Without the extension: byte for byte what a server without views lists; no other tool reads as a dispatcher.
  const plain = JSON.stringify(await legacy(onSearch(false), {}, [["tools/list", {}]]));
  assert.is(JSON.stringify(await legacy(onSearch(true), {}, [["tools/list", {}]])), plain);
  const [allSurface] = await legacy(server(true), DECLARES, [
    ["resources/read", { uri: "ui://views/operation/call_operation" }],
  ]);
  assert.ok("error" in allSurface!, "a server that serves no call_operation has no such view");
});

test("reading a view that does not exist is not found; a script that could end its element is refused", async () => {
  const [unknown, wrongKind] = await legacy(server(true), DECLARES, [
    ["resources/read", { uri: "ui://views/table/nope" }],
    ["resources/read", { uri: "ui://views/card/listPets" }],
  ]);
  assert.ok("error" in unknown! && "error" in wrongKind!);
  assert.throws(() => viewScript("a = '</script>'"), /cannot be inlined/);
  const [broken] = await legacy(server(true, "x = '</SCRIPT>'"), DECLARES, [
    ["resources/read", { uri: viewUri(chooseView(byName("getPet"))!) }],
  ]);
  assert.ok("error" in broken!);
});

test("the feature plugs the views; without the built bundle a view says how to build it", async () => {
  const plugs = await apps.plugs({ flags: {}, env: {}, info, http: false, logger: silentLogger });
  assert.type(plugs.toolViews, "function");
  const target = new McpServer({ info, tools: tools(), upstream: { baseUrl: "http://127.0.0.1:9" }, ...plugs });
  const [listed, read] = await legacy(target, DECLARES, [
    ["tools/list", {}],
    ["resources/read", { uri: "ui://views/card/getPet" }],
  ]);
  assert.ok(JSON.stringify(listed).includes("ui://views/card/getPet"));
  // mcp-gen's own build compiles the feature but bundles no view script (a generated project's build does).
  assert.match(JSON.stringify(read), /the views' script is not built: run `npm run build`/);
});

test("with feature clients too: a profiled client that declares the extension gets the links on the tools it is served", async () => {
  const profiles = JSON.stringify(runtimeProfiles());
  const clientPlugs = await clients.plugs({
    flags: { client: "cursor" },
    env: {},
    info,
    http: false,
    logger: silentLogger,
    readData: (file) => (file === "client-profiles.json" ? profiles : undefined),
  });
  const make = () =>
    new McpServer({
      info,
      tools: tools(),
      upstream: { baseUrl: "http://127.0.0.1:9" },
      clientViews: clientPlugs.clientViews,
      toolViews: (operations) => new AppViews(operations, () => "void 0"),
    });
  const [plain] = await legacy(make(), {}, [["tools/list", {}]]);
  const [declaring] = await legacy(make(), DECLARES, [["tools/list", {}]]);
  assert.not.ok(JSON.stringify(plain).includes("ui://"));
  const listed = resultOf(declaring!).tools as Array<Record<string, any>>;
  assert.is(listed.find((tool) => tool.name === "getPet")!._meta.ui.resourceUri, "ui://views/card/getPet");
});

test("hostile spec text stays text: titles, descriptions and enum values cannot close the page's elements", () => {
  const hostile = "</script><script>alert(1)</script><!--\u2028";
  const tool = byName("createPet");
  tool.title = `${hostile}"'&<title>`;
  (tool.inputSchema.properties!.name as Record<string, unknown>).description = hostile;
  (tool.inputSchema as any).$defs.PetStatus.enum = [hostile, `"><img src=x onerror=alert(1)>`];
  const spec = chooseView(tool)!;
  const page = viewPage(spec, viewScript("void 0"));
  assert.is(page.match(/<script/gi)!.length, 2, "only the spec's JSON element and the view's own script");
  assert.is(page.match(/<\/script/gi)!.length, 2);
  assert.is(page.match(/<title>/g)!.length, 1);
  assert.not.ok(page.includes("<img"));
  const json = /<script type="application\/json" id="mcp-view-spec">([^<]*)<\/script>/.exec(page)![1]!;
  assert.not.ok(json.includes("\u2028"), "no line separator left raw in the JSON");
  assert.equal(JSON.parse(json), spec, "the JSON reads back as the spec, every character kept");
  assert.is(escapeHtml(`<a href="x">'&`), "&#60;a href=&#34;x&#34;&#62;&#39;&#38;");
  assert.is(scriptJson("</script>"), '"\\u003c/script\\u003e"');
});

test.run();
