// The parts npm run bench, bench:instructions, bench:http and the HTTP experiments share: the local
// upstream, the petstore example built as a user builds it, the floor servers, a stdio MCP peer, an HTTP
// server process and a run of the HTTP load generator.
import { execFile, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

/** This checkout. */
export const root = fileURLToPath(new URL("..", import.meta.url));

/** The upstream: one small JSON document on 127.0.0.1. Resolves to the server and its base URL. */
export async function startUpstream() {
  const body = JSON.stringify({ id: 1, name: "Rex", tag: "dog", status: "available" });
  const upstream = createServer((req, res) =>
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body),
  );
  await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  return { upstream, baseUrl: `http://127.0.0.1:${upstream.address().port}` };
}

/** The median of `values` (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU time of a process so far, all threads, in nanoseconds (/proc/<pid>/task/<tid>/schedstat). */
export const cpuNs = (pid) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (sum, tid) => sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]),
    0,
  );

/** Resident memory of a process now, in MB (VmRSS of /proc/<pid>/status). */
export const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

/**
 * Writes `<checkout>`'s petstore example (with its vendored runtime, which the checked-in example
 * leaves out; an older checkout's example holds it) into `work` as `name` and compiles it. With
 * `features`, the example is generated afresh from its spec with those runtime features added.
 */
export async function buildPetstore(checkout, work, name, features) {
  const source = join(checkout, "generated/petstore");
  if (!existsSync(source)) throw new Error(`no ${source}`);
  const target = join(work, name);
  const helper = join(checkout, "dist/test/support/example-custom.js");
  const { materializeExample } = existsSync(helper) ? await import(pathToFileURL(helper).href) : {};
  if (materializeExample) await materializeExample(checkout, "petstore", target, features);
  else cpSync(source, target, { recursive: true });
  symlinkSync(join(root, "node_modules"), join(target, "node_modules"), "dir");
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(target, "tsconfig.json")]);
  // The rest of the project's `npm run build` (esbuild joining dist/, when the checkout's projects have it).
  const bundle = join(target, "scripts/bundle-dist.mjs");
  if (existsSync(bundle)) execFileSync(process.execPath, [bundle]);
  return target;
}

// A floor: the least an MCP stdio server can do per call (read a line, make one call, write a line;
// no validation). Through fetch (the start-up and memory reference), through got as the runtime
// calls (buffered body, no HTTP errors thrown: no server that calls through got can do less per
// call), or through node:http itself (what the HTTP client alone costs).
const floorOf = (call) => `import { createInterface } from "node:readline";
${call.imports}
const base = process.argv[2];
createInterface({ input: process.stdin }).on("line", async (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method !== "tools/call") return process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: {} }) + "\\n");
  const url = base + "/pets/" + msg.params.arguments.petId;
  const text = ${call.text};
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }] } }) + "\\n");
});
`;
const FLOOR_CALLS = {
  fetch: { imports: "", text: "await (await fetch(url)).text()" },
  got: {
    imports: `import got from ${JSON.stringify(join(root, "node_modules/got/dist/source/index.js"))};`,
    text: `(await got(url, { throwHttpErrors: false, responseType: "buffer" })).body.toString("utf8")`,
  },
  http: {
    imports: `import { get } from "node:http";`,
    text: `await new Promise((resolve, reject) => get(url, (res) => { const chunks = []; res.on("data", (c) => chunks.push(c)); res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8"))); }).on("error", reject))`,
  },
};

/**
 * The line loop of the floors that call a tool of the built example (`toolsFile`): the JSON-RPC envelope checked,
 * the tool found by name, `valid` (an expression of `tool` and `args`) for its arguments, then `answer` (statements
 * that write the result).
 */
const toolCallLoop = (
  toolsFile,
  valid,
  answer,
) => `const tools = new Map(JSON.parse(readFileSync(${JSON.stringify(toolsFile)}, "utf8")).map((tool) => [tool.name, tool]));
const base = process.argv[2];
const write = (message) => process.stdout.write(JSON.stringify(message) + "\\n");
createInterface({ input: process.stdin }).on("line", async (line) => {
  const msg = JSON.parse(line);
  if (msg === null || typeof msg !== "object" || msg.jsonrpc !== "2.0" || typeof msg.method !== "string") return;
  if (msg.id === undefined) return;
  if (msg.method !== "tools/call") return write({ jsonrpc: "2.0", id: msg.id, result: {} });
  const tool = tools.get(msg.params?.name);
  const args = msg.params?.arguments ?? {};
  if (!tool || !(${valid})) return write({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "invalid call" } });
  ${answer}
});
`;
const gotImport = `import got from ${JSON.stringify(join(root, "node_modules/got/dist/source/index.js"))};`;

// The MCP floor: the got floor plus what MCP asks of every call of a tool that has schemas: the JSON-RPC envelope
// checked, the tool found by name, its arguments validated (ajv as the runtime sets it up), the path filled in,
// the body parsed and validated against the output schema, a result with the text and structuredContent. A
// compliant server cannot do less per call; the runtime's own overhead over it is what its generality costs.
const mcpFloorOf = (toolsFile) => `import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
${gotImport}
const require = createRequire(${JSON.stringify(join(root, "package.json"))});
const ajv = new (require("ajv/dist/2020.js").Ajv2020)({ allErrors: true, strict: false, validateSchema: false, logger: false, ownProperties: true });
require("ajv-formats").default(ajv);
const compiled = new Map();
const validate = (schema, value) => (compiled.get(schema) ?? compiled.set(schema, ajv.compile(schema)).get(schema))(value);
${toolCallLoop(
  toolsFile,
  "validate(tool.inputSchema, args)",
  `const url = base + tool.http.path.replace(/\\{([^}]+)\\}/g, (_, name) => encodeURIComponent(String(args[name])));
  const response = await got(url, { throwHttpErrors: false, responseType: "buffer", headers: { accept: tool.http.response.accept.join(", ") } });
  const text = response.body.toString("utf8");
  const value = JSON.parse(text);
  const structured = validate(tool.outputSchema, value) ? { structuredContent: value } : {};
  write({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }], ...structured } });`,
)}`;

// Two steps from the MCP floor towards the generated server, to see what each part of the runtime costs: the MCP
// floor's loop with the runtime's own parts (this checkout's dist/runtime, npm run build): "parts" validates with
// its SchemaValidator, builds the request with buildRequest, calls got through upstream.ts's got instance (with a
// size cap's listener as upstream.ts sets one) and maps the response with mapResponse; "upstream" hands the call to callUpstream (queue,
// deadline watch, retries' bookkeeping). The rest of the way is the dispatcher, the tool caller and the transport.
const runtimeFloorOf = (toolsFile, upstream) => {
  const from = (module) => JSON.stringify(join(root, "dist/runtime/src", module));
  const call = upstream
    ? "callUpstream(tool, args, { upstream: { baseUrl: base }, userAgent: 'bench', validator, queue })"
    : `(async () => {
    const prepared = buildRequest(tool.http, args, base);
    const limits = { deadline: performance.now() + 30000, maxResponseBytes: 50 * 1024 * 1024, attempts: 1 };
    const request = client(prepared.url, { method: prepared.method, headers: { ...prepared.headers, "user-agent": "bench" }, context: { limits } });
    void request.on("downloadProgress", ({ transferred, total }) => {
      if (transferred > limits.maxResponseBytes || (total ?? 0) > limits.maxResponseBytes) request.cancel();
    });
    const response = await request;
    return mapResponse(tool, { status: response.statusCode, statusMessage: response.statusMessage, contentType: response.headers["content-type"], body: response.body, method: prepared.method, path: prepared.path, url: prepared.safeUrl }, validator);
  })()`;
  return `import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
${gotImport}
import { buildRequest } from ${from("upstream/request.js")};
import { mapResponse } from ${from("upstream/result.js")};
import { callUpstream } from ${from("upstream/upstream.js")};
import { upstreamClient } from ${from("upstream/got-client.js")};
import { UpstreamQueue } from ${from("upstream/queue.js")};
import { SchemaValidator } from ${from("api/validation.js")};
const validator = new SchemaValidator();
const queue = new UpstreamQueue(32);
const client = upstreamClient(got, 2);
${toolCallLoop(toolsFile, 'validator.validate(tool.inputSchema, args, "input").ok', `write({ jsonrpc: "2.0", id: msg.id, result: await ${call} });`)}`;
};

/** The floors that read the built example's tools, by name. */
const PROJECT_FLOORS = {
  mcp: mcpFloorOf,
  parts: (tools) => runtimeFloorOf(tools, false),
  upstream: (tools) => runtimeFloorOf(tools, true),
};

/**
 * Writes the floor server `name` (fetch, got, http; or mcp, parts, upstream, which read the tools of the built
 * example `project`) into `work`; returns its path (argument: the base URL).
 */
export function writeFloor(work, name, project) {
  const source = FLOOR_CALLS[name]
    ? floorOf(FLOOR_CALLS[name])
    : PROJECT_FLOORS[name]?.(join(project, "data/tools.json"));
  if (!source) throw new Error(`unknown floor ${name} (fetch, got, http, mcp, parts, upstream)`);
  const file = join(work, name === "fetch" ? "floor.mjs" : `floor-${name}.mjs`);
  writeFileSync(file, source);
  return file;
}

/**
 * A stdio MCP peer: spawns `command` (`args` after it; node by default; `env` added to this process's),
 * sends one request at a time and awaits its response.
 */
export function startPeer(args, command = process.execPath, env = {}) {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], env: { ...process.env, ...env } });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    const msg = JSON.parse(line);
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\n");
    });
  return { child, t0, request, stop: () => child.kill("SIGTERM") };
}

/** The `initialize` params every bench peer sends. */
export const INITIALIZE = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "bench", version: "1" },
};

/** The measured call: the petstore's getPet. */
export const getPet = (peer) => peer.request("tools/call", { name: "getPet", arguments: { petId: 1 } });

/**
 * Starts an HTTP server process (`args` to node) and resolves once it prints "listening on <url>" on stderr
 * (npm run bench:http and the HTTP experiments); `stdout` (a file descriptor) and `env` are the process's.
 */
export function startHttp(args, label, { stdout = "ignore", env = process.env } = {}) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", stdout, "pipe"], env });
  const lines = [];
  const memory = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (line.startsWith("bench-memory ")) memory.shift()?.(JSON.parse(line.slice("bench-memory ".length)));
    else lines.push(line);
  });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not listen in 30 s: ${lines.join("\n")}`)), 30_000);
    const check = setInterval(() => {
      const found = lines.map((l) => /listening on (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
      if (!found) return;
      clearInterval(check);
      clearTimeout(timer);
      resolve(found);
    }, 20);
    child.once("exit", (code) => reject(new Error(`${label} exited (${code}): ${lines.join("\n")}`)));
  });
  /** Asks the preloaded bench-http-gc.js for a GC and the memory after it. */
  const memoryAfterGc = () =>
    new Promise((resolve) => {
      memory.push(resolve);
      child.kill("SIGUSR2");
    });
  return url.then((href) => ({ child, url: href, memoryAfterGc, stop: () => child.kill("SIGTERM") }));
}

/** The most calls a calls job may hand back the latencies of (the buffer for its answer is sized for them). */
const MAX_LATENCIES = 2_000_000;

/**
 * Runs one load job in its own process (bench-http-load.js); resolves to its outcome. Killed after its time + 60 s.
 * A calls job with `latencies: true` (at most MAX_LATENCIES calls) also hands back every call's latency.
 */
export function httpLoad(job) {
  const script = join(root, "scripts/bench-http-load.js");
  if (job.latencies && !(job.maxCalls <= MAX_LATENCIES)) throw new Error(`latencies of at most ${MAX_LATENCIES} calls`);
  // 1 MiB for the figures, plus 6 characters a call for the latencies (base64 of a float32 is 5⅓): at most 13 MB.
  const maxBuffer = (1 << 20) + (job.latencies ? job.maxCalls * 6 : 0);
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [script, JSON.stringify(job)],
      { timeout: ((job.seconds ?? 0) + 60) * 1000, maxBuffer },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    ),
  );
}

/** The latencies (ms) a calls job with `latencies: true` handed back (base64 of float32s, this machine's byte order). */
export function decodeLatencies(base64) {
  const bytes = Buffer.from(base64 ?? "", "base64");
  // Copied: a small Buffer may sit in Node's shared pool at an offset a Float32Array cannot start at.
  return new Float32Array(Uint8Array.from(bytes).buffer);
}
