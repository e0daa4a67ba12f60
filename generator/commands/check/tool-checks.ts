/**
 * Tools: the listing over every page (cursors, an invalid cursor, a stable order), the hygiene of
 * what is listed (names, descriptions, schemas that compile, object roots), its token footprint for
 * the clients of `mcp-gen lint`, and calls — an unknown tool, invalid arguments, cancellation.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { type ListedTool, estimateTokens, listBytes } from "../../shared/contract.js";
import { Sampler } from "../../pipeline/emit/test-cases/sample-value.js";
import { clientProfiles } from "../../shared/profiles.js";
import { HttpConnection, modernParams, StdioConnection } from "./connection.js";
import {
  describeReply,
  errorCode,
  fail,
  isObject,
  pass,
  skip,
  type CheckContext,
  type CheckDefinition,
  type Outcome,
} from "./check-types.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020 | Ajv) => void;

/** Pages a listing may take before the check calls it endless. */
const MAX_PAGES = 1000;
/** The tool-name rule of 2025-11-25 (SEP-986). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Lists every page of tools/list; the tools, or why not. */
async function listAll(context: CheckContext): Promise<{ tools: ListedTool[]; pages: number } | { error: string }> {
  const tools: ListedTool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const reply = await context.connection.request("tools/list", cursor === undefined ? {} : { cursor });
    const result = reply.message?.result;
    if (!isObject(result) || !Array.isArray(result.tools))
      return { error: `tools/list page ${page} failed: ${describeReply(reply)}` };
    tools.push(...(result.tools as ListedTool[]));
    if (result.nextCursor === undefined) return { tools, pages: page };
    if (typeof result.nextCursor !== "string")
      return { error: `page ${page}: nextCursor ${JSON.stringify(result.nextCursor)} is not a string` };
    if (cursors.has(result.nextCursor))
      return { error: `page ${page} repeats the cursor of an earlier page (the listing loops)` };
    cursors.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  return { error: `tools/list did not end within ${MAX_PAGES} pages` };
}

export const listing: CheckDefinition = {
  id: "tools-list-pagination",
  weight: 5,
  async run(context) {
    const first = await listAll(context);
    if ("error" in first) {
      context.listError = first.error;
      return fail(first.error);
    }
    context.tools = first.tools;
    const problems: string[] = [];
    const names = first.tools.map((tool) => (isObject(tool) ? String(tool.name) : "?"));
    const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
    if (duplicates.length > 0) problems.push(`listed twice: ${[...new Set(duplicates)].slice(0, 5).join(", ")}`);
    const bad = await context.connection.request("tools/list", { cursor: "mcp-gen-check:not-a-cursor" });
    if (errorCode(bad) !== -32602) problems.push(`an invalid cursor got ${describeReply(bad)}, not -32602`);
    const second = await listAll(context);
    if ("error" in second) problems.push(`a second listing failed: ${second.error}`);
    else if (JSON.stringify(second.tools.map((t) => t.name)) !== JSON.stringify(names))
      problems.push("a second listing returned the tools in another order (tools/list should be deterministic)");
    if (problems.length > 0) return fail(problems.join("; "));
    return pass(
      `${first.tools.length} tools over ${first.pages} page(s), stable order, invalid cursor refused with -32602`,
    );
  },
};

/** The listed tools, or the outcome for a check that needs them when listing failed. */
function listedTools(context: CheckContext): ListedTool[] | Outcome {
  return context.tools ?? fail(`no tools to check: ${context.listError ?? "tools/list was not run"}`);
}

export const names: CheckDefinition = {
  id: "tools-names",
  weight: 5,
  async run(context) {
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    const bad = tools
      .filter((tool) => typeof tool.name !== "string" || !TOOL_NAME.test(tool.name))
      .map((tool) => JSON.stringify(tool.name));
    return bad.length > 0
      ? fail(`${bad.length} tool name(s) outside 1-128 characters of A-Z a-z 0-9 _ . -: ${bad.slice(0, 5).join(", ")}`)
      : pass(`${tools.length} tool names of 1-128 characters from A-Z a-z 0-9 _ . -`);
  },
};

export const descriptions: CheckDefinition = {
  id: "tools-descriptions",
  weight: 5,
  async run(context) {
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    const bare = tools
      .filter((tool) => typeof tool.description !== "string" || tool.description.trim() === "")
      .map((tool) => tool.name);
    return bare.length > 0
      ? fail(`${bare.length} tool(s) without a description: ${bare.slice(0, 5).join(", ")}`)
      : pass(`every tool has a description`);
  },
};

/** Compiles a tool schema with ajv in its dialect (2020-12 unless it names draft-07); the error, if any. */
function compileError(schema: unknown, compilers: { draft2020: Ajv2020; draft07: Ajv }): string | undefined {
  if (!isObject(schema)) return "not an object";
  const dialect = typeof schema.$schema === "string" ? schema.$schema : undefined;
  try {
    if (dialect === undefined || dialect.includes("2020-12")) compilers.draft2020.compile(schema);
    else if (/draft-0[67]/.test(dialect)) compilers.draft07.compile(schema);
    else return `unsupported dialect ${dialect}`;
    return undefined;
  } catch (error) {
    return (error as Error).message.split("\n")[0];
  }
}

export const schemasCompile: CheckDefinition = {
  id: "tools-schemas-compile",
  weight: 5,
  async run(context) {
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    // Unknown keywords (x-mcp-header …) and formats are allowed, as clients' validators allow them.
    const options = { strict: false, logger: false, allErrors: false, validateSchema: true } as const;
    const compilers = { draft2020: new Ajv2020(options), draft07: new Ajv(options) };
    addFormats(compilers.draft2020);
    addFormats(compilers.draft07);
    const broken: string[] = [];
    let count = 0;
    for (const tool of tools) {
      for (const [which, schema] of [
        ["inputSchema", tool.inputSchema],
        ["outputSchema", tool.outputSchema],
      ] as const) {
        if (schema === undefined && which === "outputSchema") continue;
        count++;
        const error = compileError(schema, compilers);
        if (error) broken.push(`${tool.name} ${which}: ${error}`);
      }
    }
    return broken.length > 0
      ? fail(`${broken.length} schema(s) do not compile: ${broken.slice(0, 3).join("; ")}`)
      : pass(`${count} input and output schemas compile (JSON Schema 2020-12)`);
  },
};

export const objectRoots: CheckDefinition = {
  id: "tools-schemas-object-root",
  weight: 5,
  async run(context) {
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    const bad: string[] = [];
    for (const tool of tools) {
      if (!isObject(tool.inputSchema) || tool.inputSchema.type !== "object") bad.push(`${tool.name} inputSchema`);
      if (tool.outputSchema !== undefined && (!isObject(tool.outputSchema) || tool.outputSchema.type !== "object"))
        bad.push(`${tool.name} outputSchema`);
    }
    return bad.length > 0
      ? fail(`${bad.length} schema(s) without type "object" at the root: ${bad.slice(0, 5).join(", ")}`)
      : pass(`every input and output schema has type "object" at the root`);
  },
};

export const footprint: CheckDefinition = {
  id: "token-footprint",
  weight: 5,
  async run(context) {
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    const bytes = listBytes(tools);
    const tokens = estimateTokens(bytes);
    // The clients of `mcp-gen lint` that defer or drop a list above a token budget (profiles/clients/).
    const over = clientProfiles().filter(
      (profile) => profile.limits.maxListTokens && tokens > profile.limits.maxListTokens.value,
    );
    const summary = `tools/list of ${tools.length} tools is ${bytes.toLocaleString("en-US")} bytes, ~${tokens.toLocaleString("en-US")} tokens`;
    if (over.length > 0)
      return fail(
        `${summary}: over the budget of ${over.map((p) => `${p.name} (${p.limits.maxListTokens!.value.toLocaleString("en-US")}, ${p.limits.maxListTokens!.effect})`).join(", ")}; serve --surface search`,
      );
    return pass(`${summary}, within every client profile's budget`);
  },
};

export const unknownTool: CheckDefinition = {
  id: "tools-call-unknown",
  weight: 5,
  async run({ connection, tools }) {
    let name = "mcp_gen_check_no_such_tool";
    while (tools?.some((tool) => tool.name === name)) name += "_";
    const reply = await connection.request("tools/call", { name, arguments: {} });
    if (errorCode(reply) === -32602) return pass(`an unknown tool is a JSON-RPC error -32602`);
    return fail(`tools/call of an unknown tool got ${describeReply(reply)}, not a JSON-RPC error -32602`);
  },
};

/** Sample arguments, valid and invalid, from the listed input schemas. */
const sampler = new Sampler();

/** Arguments the tool's input schema refuses: one property with a value of the wrong type, or a required one left out. */
function invalidArguments(tool: ListedTool): { args: Record<string, unknown>; what: string } | undefined {
  const schema = tool.inputSchema as Record<string, unknown>;
  if (!isObject(schema)) return undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const valid = sampler.sample(schema, schema);
  const base = isObject(valid) ? valid : {};
  for (const [key, property] of Object.entries(properties)) {
    const bad = sampler.invalid(property as Record<string, unknown>, schema);
    if (bad === undefined) continue;
    const args = { ...base, [key]: bad };
    if (!sampler.accepts(schema, args, schema)) return { args, what: `${key}: ${JSON.stringify(bad)}` };
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (required.length > 0) {
    const args = Object.fromEntries(Object.entries(base).filter(([key]) => key !== required[0]));
    if (!sampler.accepts(schema, args, schema)) return { args, what: `without the required ${required[0]}` };
  }
  return undefined;
}

export const invalidArgs: CheckDefinition = {
  id: "tools-call-invalid-arguments",
  weight: 10,
  async run(context) {
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    const target = tools
      .map((tool) => ({ tool, invalid: invalidArguments(tool) }))
      .find((entry) => entry.invalid !== undefined);
    if (!target) return skip("no listed tool has an argument a wrong value can be given to");
    const before = context.tripwire?.requests.length ?? 0;
    const reply = await context.connection.request("tools/call", {
      name: target.tool.name,
      arguments: target.invalid!.args,
    });
    const reached = (context.tripwire?.requests.length ?? 0) - before;
    const result = reply.message?.result;
    const what = `${target.tool.name} (${target.invalid!.what})`;
    if (!isObject(result))
      return fail(`invalid arguments for ${what} got ${describeReply(reply)}, not a result with isError (SEP-1303)`);
    if (result.isError !== true) return fail(`invalid arguments for ${what} got a result without isError: true`);
    if (reached > 0)
      return fail(
        `invalid arguments for ${what} were refused, but only after ${reached} request(s) to the upstream API`,
      );
    return pass(
      `invalid arguments for ${what} are an isError result${context.tripwire ? ", before any upstream request" : ""}`,
    );
  },
};

/** Tools with arguments their schema accepts, to make a call that reaches the upstream. */
function callableTools(tools: ListedTool[]): Array<{ name: string; args: Record<string, unknown> }> {
  const found: Array<{ name: string; args: Record<string, unknown> }> = [];
  for (const tool of tools) {
    const schema = tool.inputSchema as Record<string, unknown>;
    if (!isObject(schema)) continue;
    const args = sampler.sample(schema, schema);
    if (isObject(args) && sampler.accepts(schema, args, schema)) found.push({ name: tool.name, args });
    if (found.length >= 5) break;
  }
  return found;
}

export const cancellation: CheckDefinition = {
  id: "cancellation",
  weight: 5,
  async run(context) {
    const { tripwire, connection } = context;
    if (!tripwire) return skip("needs the check's upstream stand-in (not available for a server given by --url)");
    const tools = listedTools(context);
    if (!Array.isArray(tools)) return tools;
    const candidates = callableTools(tools);
    for (const [i, candidate] of candidates.entries()) {
      const id = `check-cancel-${i}`;
      const abort = new AbortController();
      const upstream = tripwire.nextRequest(10_000);
      // Over HTTP the call is a modern request, whose cancellation is closing its stream.
      const params =
        connection instanceof HttpConnection
          ? modernParams({ name: candidate.name, arguments: candidate.args })
          : { name: candidate.name, arguments: candidate.args };
      const reply = connection.requestWithId(id, "tools/call", params, { timeoutMs: 30_000, signal: abort.signal });
      const first = await Promise.race([upstream, reply.then(() => "answered" as const)]);
      if (first === undefined || first === "answered") continue; // this tool did not wait on the upstream
      if (connection instanceof StdioConnection)
        await connection.notify("notifications/cancelled", { requestId: id, reason: "mcp-gen check: cancellation" });
      else abort.abort();
      const aborted = await Promise.race([
        first.closed.then(() => true),
        new Promise<boolean>((done) => setTimeout(() => done(false), 5_000)),
      ]);
      const answered =
        connection instanceof StdioConnection
          ? await Promise.race([
              reply.then((r) => r.message !== undefined),
              new Promise<boolean>((done) => setTimeout(() => done(false), 1_000)),
            ])
          : false;
      if (connection instanceof StdioConnection) {
        connection.forget(id);
        abort.abort();
      }
      const alive = await connection.request("ping", {}, { timeoutMs: 5_000 });
      const problems: string[] = [];
      if (!aborted) problems.push("the upstream request went on for 5 s after the cancellation");
      if (answered) problems.push("the cancelled request was answered anyway");
      if (!isObject(alive.message?.result))
        problems.push(`the server did not answer ping afterwards (${describeReply(alive)})`);
      const how = connection instanceof StdioConnection ? "notifications/cancelled" : "closing the request's stream";
      return problems.length > 0
        ? fail(`cancelling ${candidate.name} (${how}): ${problems.join("; ")}`)
        : pass(`cancelling ${candidate.name} (${how}) aborted its upstream request; no answer was sent`);
    }
    return skip(`none of the ${candidates.length} tools called with sample arguments waited on the upstream API`);
  },
};
