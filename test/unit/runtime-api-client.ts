/**
 * The typed extension API at run time: per-tool hooks beside the global ones, and the `api` client
 * custom code gets (feature custom's operation-api.ts), going through the server's operation path — hooks, validation,
 * upstream, pagination cursors — with the calling request's cancellation. The `@ts-expect-error`
 * lines are the compile-time half: this file does not build if the types accept them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  ApiError,
  errorResponseGuard,
  type ApiClient,
  type ApiResponse,
  type BinaryData,
} from "../../runtime/src/features/custom/typed-api.js";
import type { Extension } from "../../runtime/src/api/extensions.js";
import { defineExtension, defineTool, defineToolFor } from "../../runtime/src/features/custom/define-extension.js";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { info, sampleTools, startUpstream, type Reply, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import { customCode } from "../../runtime/src/features/custom/index.js";

/** The maps a generated project has in src/tools/index.ts, for the fixture's tools. */
interface Inputs {
  getPet: { petId: number; verbose?: boolean };
  listPets: { limit?: number; tags?: string[]; apiKey?: string };
  createPet: { name: string; tag?: string; requestId?: string };
  slow: Record<string, never>;
  deletePet: Record<string, never>;
}
/** What each call returns: `listPets`'s array is unwrapped from its `items` wrapper. */
interface Outputs {
  getPet: { id: number; name?: string };
  listPets: Array<{ id: number }>;
  createPet: unknown;
  slow: unknown;
  deletePet: undefined;
}
/** Each tool's structuredContent on the wire (what per-tool hooks see). */
interface Contents {
  getPet: { id: number; name?: string } | { unexpectedResponse: unknown };
  listPets: { items: Array<{ id: number }> } | { unexpectedResponse: unknown };
  createPet: unknown;
  slow: unknown;
  deletePet: unknown;
}
/** The bodies of each tool's upstream error answers. */
interface Errors {
  getPet: { message: string };
  listPets: unknown;
  createPet: unknown;
  slow: unknown;
  deletePet: unknown;
}
type Api = ApiClient<Inputs, Outputs>;
const isErrorResponse = errorResponseGuard<Errors>();

/** The fixture's tools, getPet and listPets with the generated output schemas' unexpected-response branch. */
function tools(): ToolDefinition[] {
  const fallback = { properties: { unexpectedResponse: {} }, required: ["unexpectedResponse"] };
  return sampleTools().map((tool) => {
    if (tool.name !== "getPet" && tool.name !== "listPets") return tool;
    const { type: _type, ...documented } = tool.outputSchema!;
    return {
      ...tool,
      outputSchema: { type: "object", anyOf: [documented, fallback] },
      http: { ...tool.http, response: { ...tool.http.response, fallbackKey: "unexpectedResponse" } },
    };
  });
}

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream((r): Reply => {
    if (r.url.includes("/slow")) return "hang";
    if (r.method === "POST")
      return {
        status: 201,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: 9, ...JSON.parse(r.body) }),
      };
    if (r.url.includes("/pets/404"))
      return { status: 404, headers: { "content-type": "application/json" }, body: '{"message":"no such pet"}' };
    if (r.url.includes("/pets/7"))
      return { status: 200, headers: { "content-type": "application/json" }, body: '{"name":"no id"}' };
    if (r.url.includes("/pets/"))
      return {
        status: 200,
        headers: { "content-type": "application/json", "x-rate-limit": "7" },
        body: '{"id":42,"name":"Rex"}',
      };
    return { status: 200, headers: { "content-type": "application/json" }, body: '[{"id":1},{"id":2}]' };
  });
});
test.after(async () => {
  await upstream.close();
});

const server = (extension: Extension) =>
  new McpServer({
    ...apiFeatures,
    info,
    tools: tools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    extension,
  });
const call = (s: McpServer, id: number, name: string, args: unknown = {}) =>
  s.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
function result(response: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(response && "result" in response, JSON.stringify(response));
  return (response as { result: Record<string, any> }).result;
}
const text = (r: Record<string, any>) =>
  (r.content as Array<{ text?: string }>).map((block) => block.text ?? "").join("\n");

test("per-tool hooks run inside the global ones, typed by tool name; a before result skips the call", async () => {
  const order: string[] = [];
  const extension = defineExtension<Inputs, Outputs, Contents>({
    hooks: {
      beforeCall: (tool) => void order.push(`beforeCall ${tool.name}`),
      afterCall: (tool) => void order.push(`afterCall ${tool.name}`),
      getPet: {
        before(args) {
          order.push("getPet.before");
          // @ts-expect-error petId is a number
          args.petId.toUpperCase;
          return { ...args, verbose: true };
        },
        after(result, args) {
          order.push(`getPet.after ${args.verbose}`);
          const pet = result.structuredContent;
          return pet && "id" in pet
            ? { ...result, content: [...result.content, { type: "text", text: `pet ${pet.id}` }] }
            : undefined;
        },
      },
      listPets: { before: () => ({ content: [{ type: "text", text: "no listing today" }] }) },
      // @ts-expect-error only the API's tools have hooks
      getPets: { before: () => undefined },
    },
  });
  const s = server(extension);
  const got = result(await call(s, 1, "getPet", { petId: 42 }));
  assert.equal(order, ["beforeCall getPet", "getPet.before", "getPet.after true", "afterCall getPet"]);
  assert.ok(
    upstream.received.at(-1)!.url.endsWith("/pets/42?verbose=true"),
    "the before hook's arguments went upstream",
  );
  assert.match(text(got), /pet 42/);
  order.length = 0;
  const before = upstream.received.length;
  const listed = result(await call(s, 2, "listPets"));
  assert.is(text(listed), "no listing today");
  assert.is(upstream.received.length, before, "no upstream call");
  assert.equal(order, ["beforeCall listPets"], "a result from before ends the call: no after hooks");
});

test("a hook entry is found only as the tool's own: a tool named like an Object member finds nothing inherited", async () => {
  const constructorTool: ToolDefinition = { ...sampleTools()[0]!, name: "constructor" };
  const s = new McpServer({
    ...apiFeatures,
    info,
    tools: [constructorTool],
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    extension: defineExtension({ hooks: {} }),
  });
  const got = result(await call(s, 1, "constructor", { petId: 42 }));
  assert.equal(got.structuredContent, { id: 42, name: "Rex" });
});

test("api from a custom tool: two operations through the server's path, typed results, status and headers on request", async () => {
  const seen: string[] = [];
  const extension = defineExtension<Inputs, Outputs, Contents>({
    hooks: { beforeCall: (tool) => void seen.push(tool.name) },
    tools: [
      defineToolFor<Api>()({
        name: "create_then_get",
        description: "Creates a pet, then reads one.",
        inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        async handler({ name }, { api }) {
          const created = await api.createPet({ name });
          const pet: ApiResponse<{ id: number; name?: string }> = await api.getPet({ petId: 42 }, { response: true });
          // Compile-time checks only (never called).
          const typeErrors = async () => {
            // @ts-expect-error the unexpected-response branch is not what a call resolves to
            void pet.data.unexpectedResponse;
            // @ts-expect-error getPet requires petId
            void api.getPet({});
            // @ts-expect-error no such operation
            void api.getPets;
            // @ts-expect-error a list resolves to the array, not to its wire wrapper
            void (await api.listPets()).items;
            // @ts-expect-error an operation without content resolves to undefined
            const nothing: string = await api.deletePet();
            void nothing;
          };
          void typeErrors;
          const list: Array<{ id: number }> = await api.listPets();
          return {
            content: [{ type: "text", text: "done" }],
            structuredContent: {
              created,
              pet: pet.data,
              status: pet.status,
              rateLimit: pet.headers["x-rate-limit"],
              listed: list.length,
            },
          };
        },
      }),
    ],
  });
  const got = result(await call(server(extension), 1, "create_then_get", { name: "Tom" }));
  assert.equal(got.structuredContent, {
    created: { id: 9, name: "Tom" },
    pet: { id: 42, name: "Rex" },
    status: 200,
    rateLimit: "7",
    listed: 2,
  });
  assert.equal(seen, ["createPet", "getPet", "listPets"], "each api call ran the operation's hooks");
  assert.ok(!got.isError);
});

test("api failures are ApiErrors: upstream status and body, an unexpected response, refused arguments", async () => {
  const errors: unknown[] = [];
  const attempt = async (run: () => Promise<unknown>) => {
    try {
      await run();
      errors.push("no error");
    } catch (error) {
      errors.push(error);
    }
  };
  const extension = defineExtension<Inputs, Outputs, Contents>({
    tools: [
      defineToolFor<Api>()({
        name: "failures",
        description: "Three failing calls.",
        inputSchema: { type: "object" },
        async handler(_args, { api }) {
          try {
            await api.getPet({ petId: 404 });
          } catch (error) {
            if (isErrorResponse(error, "getPet") && typeof error.body === "object") {
              const body = error.body;
              const message: string = body.message;
              // Compile-time check only (never called).
              // @ts-expect-error the error body is typed from the spec's error schema
              void (() => body.code.toFixed);
              errors.push(`typed: ${message}`);
            }
            // @ts-expect-error only the API's operations have error types
            void (() => isErrorResponse(error, "getPets"));
            assert.not.ok(isErrorResponse(error, "listPets"), "an error of another operation is not listPets's");
          }
          await attempt(() => api.getPet({ petId: 404 }));
          await attempt(() => api.getPet({ petId: 7 }));
          await attempt(() => api.createPet({ name: "" }));
          return { content: [{ type: "text", text: `${"then" in api} ${"getPet" in api}` }] };
        },
      }),
    ],
  });
  const got = result(await call(server(extension), 1, "failures"));
  assert.is(text(got), "false true", "only the API's operations are properties of api (no then)");
  const [typed, missing, unexpected, refused] = errors as [string, ApiError, ApiError, ApiError];
  assert.is(typed, "typed: no such pet", "isErrorResponse narrows to the operation's typed error body");
  assert.instance(missing, ApiError);
  assert.equal(
    [missing!.kind, missing!.status, missing!.body, missing!.operation],
    ["upstream", 404, { message: "no such pet" }, "getPet"],
  );
  assert.equal(
    [unexpected!.kind, unexpected!.status, unexpected!.body],
    ["unexpected-response", 200, { name: "no id" }],
  );
  assert.match(unexpected!.message, /does not match the documented schema/);
  assert.equal([refused!.kind, refused!.status], ["failed", undefined]);
  assert.match(refused!.message, /Invalid arguments for tool createPet/);
});

test("api calls are cancelled with the calling request: the upstream connection closes", async () => {
  let failure: unknown;
  const extension = defineExtension({
    tools: [
      defineTool({
        name: "waits",
        description: "Calls an operation that never answers.",
        inputSchema: { type: "object" },
        async handler(_args, { api }) {
          try {
            await api.slow();
          } catch (error) {
            failure = error;
            throw error;
          }
          return { content: [] };
        },
      }),
    ],
  });
  const s = server(extension);
  const arrived = upstream.arrival("/slow");
  const pending = call(s, 77, "waits");
  const seen = await arrived;
  await s.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 77, reason: "user" } });
  assert.is(await pending, undefined, "a cancelled request gets no response");
  await seen.closed;
  assert.ok(failure instanceof Error, "the pending api call rejected");
});

test("api results are what the API returned: binary content as BinaryData, no content as undefined, text as text", async () => {
  const binary: ToolDefinition = {
    name: "getPhoto",
    description: "A photo",
    inputSchema: { type: "object", properties: {} },
    http: { method: "get", path: "/photo", parameters: [], response: { accept: ["application/pdf"] } },
  };
  const empty: ToolDefinition = {
    ...binary,
    name: "ping",
    http: { ...binary.http, path: "/ping", response: { accept: [] } },
  };
  const textual: ToolDefinition = {
    ...binary,
    name: "readme",
    http: { ...binary.http, path: "/readme", response: { accept: ["text/plain"] } },
  };
  const local = await startUpstream((r): Reply => {
    if (r.url.endsWith("/photo")) return { status: 200, headers: { "content-type": "application/pdf" }, body: "%PDF" };
    if (r.url.endsWith("/ping")) return { status: 204, headers: {}, body: "" };
    return { status: 200, headers: { "content-type": "text/plain" }, body: "hello" };
  });
  const seen: unknown[] = [];
  type Client = ApiClient<
    { getPhoto: {}; ping: {}; readme: {} },
    { getPhoto: BinaryData; ping: undefined; readme: string }
  >;
  const s = new McpServer({
    customCode,
    info,
    tools: [binary, empty, textual],
    upstream: { baseUrl: local.baseUrl, timeoutMs: 5000 },
    extension: defineExtension({
      tools: [
        defineToolFor<Client>()({
          name: "fetch_all",
          description: "Three calls.",
          inputSchema: { type: "object" },
          async handler(_args, { api }) {
            const photo: BinaryData = await api.getPhoto();
            seen.push(photo, await api.ping(), await api.readme());
            return { content: [] };
          },
        }),
      ],
    }),
  });
  try {
    result(await call(s, 1, "fetch_all"));
  } finally {
    await local.close();
  }
  assert.equal(seen, [
    { mimeType: "application/pdf", data: Buffer.from("%PDF").toString("base64"), uri: `${local.baseUrl}/photo` },
    undefined,
    "hello",
  ]);
});

test("defineTool types arguments from the inputSchema literal; defineExtension takes untyped tools too", () => {
  const tool = defineTool({
    name: "typed",
    description: "Typed arguments.",
    inputSchema: {
      type: "object",
      properties: {
        n: { type: "integer" },
        mode: { enum: ["a", "b"] },
        tags: { type: "array", items: { type: "string" } },
        note: { type: ["string", "null"] },
      },
      required: ["n", "mode"],
    },
    handler(args) {
      const n: number = args.n;
      const mode: "a" | "b" = args.mode;
      const tags: string[] | undefined = args.tags;
      const note: string | null | undefined = args.note;
      // @ts-expect-error n is a number
      const wrong: string = args.n;
      return { content: [{ type: "text", text: `${n} ${mode} ${tags?.length} ${note} ${wrong}` }] };
    },
  });
  const extension = defineExtension({ tools: [tool] });
  assert.is(extension.tools?.[0], tool, "defineTool and defineExtension return what they were given");
});

test("a server given custom code without feature custom refuses to start; an empty extension needs nothing", () => {
  const options = { info, tools: tools(), upstream: { baseUrl: "http://127.0.0.1:1" } };
  const hooked = defineExtension({ hooks: { beforeCall: () => undefined } });
  assert.throws(() => new McpServer({ ...options, extension: hooked }), /needs the custom feature: .*--with custom/);
  const empty = defineExtension({ tools: [], resources: [], resourceTemplates: [], prompts: [], hooks: {} });
  assert.ok(new McpServer({ ...options, extension: empty }));
  assert.ok(new McpServer({ ...options, extension: hooked, customCode }));
});

test.run();
