/**
 * Every surface of a large generated server with both official clients over both transports
 * (issue 12's "done when"): for each surface (all, search, code), SDK 1.x and
 * @modelcontextprotocol/client 2.x, stdio and Streamable HTTP, a client connects, lists every
 * tool page, and calls one operation against a local upstream: on `all` as its own tool, on
 * `search` through search_operations → describe_operation → call_operation, on `code` through
 * execute_code. Each way must return what the operation's own tool returns, and reach the
 * upstream with the operation's method and path. `search` and `code` must list at most 4 tools in
 * under 10 KB. Used by `npm run test:large` (test/large/run.ts) and by the e2e suite on Stripe.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { startHttpServer, type HttpServerHandle } from "../support/e2e.js";
import { loadTools, readDataText } from "../../runtime/src/data/tool-data.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";

/** The surfaces checked, in order. */
export const SURFACES = ["all", "search", "code"] as const;
/** Most tools, and bytes of `tools/list`, that search and code may list (issue 12). */
export const META_TOOLS_MAX = 4;
export const META_LIST_BYTES_MAX = 10_000;

/** One client × transport × surface run. */
export interface SurfaceRun {
  surface: (typeof SURFACES)[number];
  client: "sdk-1.x" | "client-2.x";
  transport: "stdio" | "http";
  /** Tools listed over all pages, pages, and their JSON bytes. */
  tools: number;
  pages: number;
  listBytes: number;
  /** From starting to connect to the `initialize` answer (stdio: includes spawning the server). */
  connectMs: number;
  /** Listing every page. */
  listMs: number;
  /** The operation call (search: search + describe + call). */
  callMs: number;
  /** What went wrong, if anything. */
  problems: string[];
}

interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { timeout?: number },
  ): Promise<unknown>;
  close(): Promise<void>;
}
type Result = { content: Array<{ type: string; text?: string }>; structuredContent?: any; isError?: boolean };

/** An operation that can be called without arguments: a GET whose input requires nothing. */
export function callableOperation(tools: readonly ToolDefinition[]): ToolDefinition {
  const tool = tools.find(
    (t) =>
      t.http.method.toLowerCase() === "get" && !(t.inputSchema.required ?? []).length && !t.http.path.includes("{"),
  );
  if (!tool) throw new Error("no GET operation without required arguments to call");
  return tool;
}

/**
 * A made-up value for every credential variable of the server (tokens, basic user and password),
 * read from its built server info: the local upstream accepts anything, but the server refuses to
 * call without credentials.
 */
export async function credentialEnv(dir: string): Promise<Record<string, string>> {
  const { serverInfo } = (await import(pathToFileURL(join(dir, "dist", "server-info.js")).href)) as {
    serverInfo: ServerInfo;
  };
  const env: Record<string, string> = {};
  for (const scheme of serverInfo.securitySchemes ?? []) {
    for (const role of ["token", "username", "password"] as const)
      if (scheme.env[role]) env[scheme.env[role]] = `test-${role}`;
  }
  return env;
}

/** Runs every surface × client × transport on the built server in `dir`; `tools` its definitions. */
export async function checkSurfaces(
  dir: string,
  tools: readonly ToolDefinition[],
  log: (line: string) => void = () => {},
): Promise<SurfaceRun[]> {
  const operation = callableOperation(tools);
  const credentials = await credentialEnv(dir);
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: "{}",
  }));
  const runs: SurfaceRun[] = [];
  // The HTTP servers inherit this process's environment: credentials in it for their lifetime only.
  const saved = Object.fromEntries(Object.keys(credentials).map((key) => [key, process.env[key]]));
  Object.assign(process.env, credentials);
  try {
    let direct: Result | undefined;
    for (const surface of SURFACES) {
      const http = await startHttpServer(dir, ["--surface", surface, "--base-url", upstream.baseUrl], 120_000);
      try {
        for (const client of ["sdk-1.x", "client-2.x"] as const) {
          for (const transport of ["stdio", "http"] as const) {
            const run = await oneRun({
              dir,
              surface,
              client,
              transport,
              http,
              upstream,
              operation,
              toolCount: tools.length,
              direct,
              credentials,
            });
            if (surface === "all" && !direct && run.result) direct = run.result;
            runs.push(run.row);
            log(
              `${surface} ${client} ${transport}: ${run.row.tools} tools in ${run.row.pages} pages (${run.row.listBytes} B), connect ${Math.round(run.row.connectMs)} ms, list ${Math.round(run.row.listMs)} ms, call ${Math.round(run.row.callMs)} ms${run.row.problems.length ? `; PROBLEMS: ${run.row.problems.join("; ")}` : ""}`,
            );
          }
        }
      } finally {
        await http.stop();
      }
    }
  } finally {
    await upstream.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return runs;
}

interface RunInput {
  dir: string;
  surface: (typeof SURFACES)[number];
  client: SurfaceRun["client"];
  transport: SurfaceRun["transport"];
  http: HttpServerHandle;
  upstream: Upstream;
  operation: ToolDefinition;
  toolCount: number;
  credentials: Record<string, string>;
  /** The operation's own tool's result on `all`, once known: what the other ways must return. */
  direct: Result | undefined;
}

async function oneRun(input: RunInput): Promise<{ row: SurfaceRun; result?: Result }> {
  const { surface, client: kind, transport, operation } = input;
  const row: SurfaceRun = {
    surface,
    client: kind,
    transport,
    tools: 0,
    pages: 0,
    listBytes: 0,
    connectMs: 0,
    listMs: 0,
    callMs: 0,
    problems: [],
  };
  const problem = (text: string) => row.problems.push(text);
  const stdio = {
    command: process.execPath,
    args: [join(input.dir, "dist/index.js"), "--surface", surface, "--base-url", input.upstream.baseUrl],
    env: { PATH: process.env.PATH ?? "", ...input.credentials },
    stderr: "ignore" as const,
  };
  const info = { name: `large-${kind}`, version: "1.0.0" };
  let client: AnyClient;
  let t = performance.now();
  if (kind === "sdk-1.x") {
    const c = new ClientV1(info);
    await c.connect(transport === "stdio" ? new StdioV1(stdio) : new HttpV1(new URL("/mcp", input.http.url)));
    client = c as unknown as AnyClient;
  } else {
    const c = new ClientV2(info);
    await c.connect(transport === "stdio" ? new StdioV2(stdio) : new HttpV2(new URL("/mcp", input.http.url)));
    client = c as unknown as AnyClient;
  }
  row.connectMs = performance.now() - t;
  let result: Result | undefined;
  try {
    t = performance.now();
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      row.pages++;
      row.listBytes += Buffer.byteLength(JSON.stringify(page.tools));
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor);
    row.listMs = performance.now() - t;
    row.tools = names.length;
    if (surface === "all") {
      if (names.length !== input.toolCount)
        problem(`listed ${names.length} tools, the server has ${input.toolCount} operations`);
    } else {
      const expected =
        surface === "search"
          ? ["search_operations", "describe_operation", "call_operation"]
          : ["search_operations", "describe_operation", "execute_code"];
      if (JSON.stringify(names) !== JSON.stringify(expected)) problem(`listed ${JSON.stringify(names)}`);
      if (names.length > META_TOOLS_MAX || row.listBytes >= META_LIST_BYTES_MAX)
        problem(`${names.length} tools in ${row.listBytes} B`);
    }
    const before = input.upstream.received.length;
    t = performance.now();
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<Result>;
    if (surface === "all") {
      result = await call(operation.name, {});
    } else {
      // Found by its own words, as a model would: the summary (or the name) as the query.
      const query = operation.title ?? operation.name;
      const found = await call("search_operations", { query, limit: 50 });
      const hits = (found.structuredContent?.results ?? []) as Array<{ name: string }>;
      if (!hits.some((hit) => hit.name === operation.name))
        problem(`search_operations(${JSON.stringify(query)}) did not find ${operation.name}`);
      const described = await call("describe_operation", { name: operation.name });
      if (
        described.isError ||
        described.structuredContent?.name !== operation.name ||
        typeof described.structuredContent?.inputSchema !== "object"
      )
        problem(`describe_operation: ${JSON.stringify(described).slice(0, 300)}`);
      if (surface === "search") result = await call("call_operation", { name: operation.name, arguments: {} });
      else {
        const ran = await call("execute_code", { code: `return await api[${JSON.stringify(operation.name)}]({});` });
        if (ran.isError) problem(`execute_code: ${JSON.stringify(ran).slice(0, 300)}`);
        const calls = (ran.structuredContent?.calls ?? []) as Array<{ name: string; ok: boolean }>;
        if (calls.length !== 1 || calls[0]!.name !== operation.name || !calls[0]!.ok)
          problem(`execute_code calls: ${JSON.stringify(calls)}`);
        if (
          input.direct &&
          JSON.stringify(ran.structuredContent?.result) !== JSON.stringify(input.direct.structuredContent ?? null)
        ) {
          problem(
            `execute_code result ${JSON.stringify(ran.structuredContent?.result)} is not the tool's ${JSON.stringify(input.direct.structuredContent)}`,
          );
        }
      }
    }
    row.callMs = performance.now() - t;
    if (result) {
      if (result.isError) problem(`${operation.name}: ${JSON.stringify(result).slice(0, 300)}`);
      if (input.direct && JSON.stringify(result) !== JSON.stringify(input.direct))
        problem(
          `result ${JSON.stringify(result).slice(0, 200)} is not the tool's ${JSON.stringify(input.direct).slice(0, 200)}`,
        );
    }
    const reached = input.upstream.received.slice(before);
    const wanted = `${operation.http.method.toUpperCase()} ${new URL(input.upstream.baseUrl).pathname}${operation.http.path}`;
    if (reached.length !== 1 || `${reached[0]!.method} ${reached[0]!.url.split("?")[0]}` !== wanted)
      problem(`upstream got ${JSON.stringify(reached.map((r) => `${r.method} ${r.url}`))}, wanted ${wanted}`);
  } catch (error) {
    problem(error instanceof Error ? error.message : String(error));
  } finally {
    await client.close();
  }
  return { row, ...(result ? { result } : {}) };
}

/** The tool definitions of a generated server folder (data files, plain or packed). */
export function serverTools(dir: string): ToolDefinition[] {
  const json = (file: string) => JSON.parse(readDataText(pathToFileURL(join(dir, "data", file))) ?? "null");
  return loadTools(json("tools.json"), json("definitions.json"));
}
