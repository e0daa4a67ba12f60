/**
 * Code mode (runtime/src/features/code/code-mode.ts): a script runs in QuickJS in a worker thread. The escape
 * attempts below must each end as a `CodeRunResult` error (or a harmless value), with the host alive.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit): in process, but each case starts a QuickJS
 * sandbox in a worker thread and several wait out time and memory limits (about 40 s on 2 busy cores).
 */
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { codeToolResult } from "../../runtime/src/features/code/code-host.js";
import {
  DEFAULT_CODE_LIMITS,
  EXECUTE_CODE_TOOL,
  MAX_CODE_CHARS,
  executeCode,
  type CodeHost,
  type CodeLimits,
  type CodeRunResult,
} from "../../runtime/src/features/code/code-mode.js";
import { usage } from "../../runtime/src/cli/main.js";
import { code, codeLimits } from "../../runtime/src/features/code/index.js";
import { callUpstream } from "../../runtime/src/upstream/upstream.js";
import { Cancellation } from "../../runtime/src/protocol/cancellation.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import { sampleTools, startUpstream, within } from "../support/runtime-fixture.js";

/** Short wall time so that limit tests end quickly on a busy machine; generous enough for worker start-up. */
const limits: CodeLimits = { ...DEFAULT_CODE_LIMITS, timeoutMs: 8_000 };

/** A host without upstream: echoes its arguments, or fails with status and body when asked. */
function echoHost(seen: Array<{ name: string; args: Record<string, unknown> }> = []): CodeHost {
  return {
    toolNames: ["getPet", "listPets", "odd-name"],
    async call(name, args) {
      seen.push({ name, args });
      if (args.fail)
        return { ok: false, error: { message: "Upstream HTTP 404 Not Found", status: 404, body: "x".repeat(5_000) } };
      return { ok: true, value: { name, args } };
    },
  };
}

const never = (): AbortSignal => new AbortController().signal;

async function run(
  code: string,
  host: CodeHost = echoHost(),
  overrides: Partial<CodeLimits> = {},
  signal = never(),
): Promise<CodeRunResult> {
  return executeCode(code, host, { ...limits, ...overrides }, signal);
}

function expectError(result: CodeRunResult, kind: string, message?: RegExp): void {
  assert.is(result.ok, false, JSON.stringify(result).slice(0, 500));
  if (result.ok) return;
  assert.is(result.error.kind, kind, result.error.message);
  if (message) assert.match(result.error.message, message);
}

/** The host is alive and the sandbox still works after each attack. */
async function hostAlive(): Promise<void> {
  const result = await run("return 6 * 7;");
  assert.equal(result, { ok: true, result: 42, logs: [], calls: [] });
}

test("the tool definition: execute_code with one required string `code`", () => {
  assert.is(EXECUTE_CODE_TOOL.name, "execute_code");
  assert.equal((EXECUTE_CODE_TOOL.inputSchema as { required: string[] }).required, ["code"]);
  assert.match(EXECUTE_CODE_TOOL.description, /api\.<operationName>\(args\)/);
  assert.equal(DEFAULT_CODE_LIMITS, {
    timeoutMs: 30_000,
    memoryBytes: 64 * 1024 * 1024,
    maxCalls: 50,
    maxResultBytes: 100_000,
  });
});

test("limits from flags, else environment, else defaults; bad values are refused; --help lists them", () => {
  assert.equal(codeLimits({}, {}), DEFAULT_CODE_LIMITS);
  const env = {
    MCP_CODE_TIMEOUT_MS: "5000",
    MCP_CODE_MEMORY_MB: "32",
    MCP_CODE_MAX_CALLS: "7",
    MCP_CODE_MAX_RESULT_BYTES: "2000",
  };
  assert.equal(codeLimits({}, env), {
    timeoutMs: 5_000,
    memoryBytes: 32 * 1024 * 1024,
    maxCalls: 7,
    maxResultBytes: 2_000,
  });
  assert.equal(
    codeLimits({ "code-timeout": "900", "code-memory": "128", "code-max-calls": "3", "code-max-result": "1000" }, env),
    {
      timeoutMs: 900,
      memoryBytes: 128 * 1024 * 1024,
      maxCalls: 3,
      maxResultBytes: 1_000,
    },
  );
  assert.throws(() => codeLimits({ "code-memory": "8" }, {}), /--code-memory must be an integer from 16/);
  assert.throws(() => codeLimits({}, { MCP_CODE_MAX_CALLS: "lots" }), /MCP_CODE_MAX_CALLS must be an integer/);
  const help = usage({ name: "x", version: "1.0.0" }, [code]);
  const coreHelp = usage({ name: "x", version: "1.0.0" });
  for (const flag of ["--code-timeout", "--code-memory", "--code-max-calls", "--code-max-result"]) {
    assert.match(help, flag);
    assert.not.match(coreHelp, flag, "a server without the code feature does not offer its flags");
  }
});

test("QuickJS is not imported by the module the server loads at start-up (only by the worker)", () => {
  const main = readFileSync(new URL("../../runtime/src/features/code/code-mode.js", import.meta.url), "utf8");
  const worker = readFileSync(new URL("../../runtime/src/features/code/code-mode-worker.js", import.meta.url), "utf8");
  assert.not.match(main, /(from|import\()\s*["'][^"']*quickjs/i);
  assert.match(worker, /import\("quickjs-emscripten-core"\)/);
});

test("a 3-call script against a loopback upstream through the runtime's upstream path", async () => {
  const upstream = await startUpstream((r) => {
    if (r.url.startsWith("/api/v1/pets/404"))
      return { status: 404, headers: { "content-type": "application/json" }, body: '{"message":"no such pet"}' };
    if (r.url.startsWith("/api/v1/pets/")) {
      const id = Number(r.url.split("/").pop()!.split("?")[0]);
      return {
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id, name: `pet ${id}` }),
      };
    }
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ id: 1 }, { id: 2 }]),
    };
  });
  const tools = new Map(sampleTools().map((tool) => [tool.name, tool]));
  const validator = new SchemaValidator();
  const host: CodeHost = {
    toolNames: [...tools.keys()],
    async call(name, args, signal) {
      const result = await callUpstream(tools.get(name)!, args, {
        upstream: { baseUrl: upstream.baseUrl },
        userAgent: "code-mode-test",
        validator,
        cancellation: new Cancellation(signal),
      });
      const text = (result.content[0] as { text?: string } | undefined)?.text ?? "";
      if (result.isError)
        return {
          ok: false,
          error: {
            message: text,
            ...(/HTTP (\d{3})/.test(text) ? { status: Number(/HTTP (\d{3})/.exec(text)![1]) } : {}),
            body: text,
          },
        };
      return { ok: true, value: result.structuredContent ?? text };
    },
  };
  try {
    const result = await run(
      `const list = await api.listPets({ limit: 2 });
       const names = [];
       for (const pet of list.items) names.push((await api.getPet({ petId: pet.id })).name);
       console.log("names", names);
       try { await api.getPet({ petId: 404 }); } catch (error) { return { names, status: error.status, message: error.message }; }
       return "unreachable";`,
      host,
    );
    assert.is(result.ok, true, JSON.stringify(result));
    if (!result.ok) return;
    assert.equal((result.result as { names: string[] }).names, ["pet 1", "pet 2"]);
    assert.is((result.result as { status: number }).status, 404);
    assert.match((result.result as { message: string }).message, /no such pet/);
    assert.equal(result.logs, ['names ["pet 1","pet 2"]']);
    assert.equal(
      result.calls.map((c) => [c.name, c.ok]),
      [
        ["listPets", true],
        ["getPet", true],
        ["getPet", true],
        ["getPet", false],
      ],
    );
    assert.ok(result.calls.every((c) => Number.isInteger(c.ms) && c.ms >= 0));
    assert.equal(
      upstream.received.map((r) => r.url),
      ["/api/v1/pets?limit=2", "/api/v1/pets/1", "/api/v1/pets/2", "/api/v1/pets/404"],
    );
  } finally {
    await upstream.close();
  }
});

test("no process, require, module, fetch, timers, Buffer, WebAssembly or environment inside", async () => {
  const result = await run(`
    const names = ["process", "require", "module", "exports", "fetch", "setTimeout", "setInterval", "setImmediate",
      "queueMicrotask", "Buffer", "WebAssembly", "Deno", "Bun", "XMLHttpRequest", "importScripts", "std", "os", "scriptArgs"];
    const found = {};
    for (const name of names) found[name] = typeof globalThis[name];
    let dynamicImport;
    try { await import("node:fs"); dynamicImport = "loaded"; } catch (error) { dynamicImport = String(error); }
    return { found, dynamicImport, keys: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)) };`);
  assert.is(result.ok, true, JSON.stringify(result));
  if (!result.ok) return;
  const value = result.result as { found: Record<string, string>; dynamicImport: string; keys: string[] };
  for (const [name, type] of Object.entries(value.found)) assert.is(type, "undefined", name);
  assert.not.match(value.dynamicImport, /^loaded$/);
  for (const key of value.keys) assert.ok(!["process", "require", "fetch"].includes(key), key);
  await hostAlive();
});

test("Function constructor and constructor chains reach only the sandbox's own global", async () => {
  const attempts = [
    `return Function("return typeof process")();`,
    `return api.getPet.constructor("return typeof process")();`,
    `return (async function(){}).constructor("return typeof require")();`,
    `return this === undefined ? "strict" : typeof this.process;`,
    `return console.log.constructor.constructor("return typeof globalThis.process")();`,
    `return eval("typeof process");`,
    `return Object.getPrototypeOf(api.getPet).constructor("return typeof setTimeout")();`,
  ];
  for (const code of attempts) {
    const result = await run(code);
    assert.is(result.ok, true, `${code}: ${JSON.stringify(result)}`);
    if (result.ok)
      assert.ok(result.result === "undefined" || result.result === "strict", `${code} → ${String(result.result)}`);
  }
  // QuickJS builds the function from text, so a body can close it early: still only sandbox code.
  const injected = await run("}); globalThis.escaped = typeof process; (async () => {");
  assert.ok(injected.ok || injected.error.kind === "syntax", JSON.stringify(injected));
  const direct = await run(`return Function("return process.env")();`);
  expectError(direct, "exception", /ReferenceError: 'process' is not defined/);
  await hostAlive();
});

test("returned values cannot pollute the host's prototypes", async () => {
  const seen: Array<{ name: string; args: Record<string, unknown> }> = [];
  const result = await run(
    `Object.prototype.polluted = "inside";
     await api.getPet(JSON.parse('{"__proto__": {"pollutedByArgs": true}, "constructor": {"prototype": {"pollutedByArgs": true}}}'));
     return [JSON.parse('{"__proto__": {"polluted": true}}'), { constructor: { prototype: { polluted: true } } }, { toJSON() { return { __proto__: { polluted: 1 } }; } }];`,
    echoHost(seen),
  );
  assert.is(result.ok, true, JSON.stringify(result));
  if (!result.ok) return;
  const empty: Record<string, unknown> = {};
  assert.is(empty.polluted, undefined);
  assert.is(empty.pollutedByArgs, undefined);
  const [first, second] = result.result as [Record<string, unknown>, Record<string, unknown>];
  assert.is(Object.getPrototypeOf(first), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(first, "__proto__"), "__proto__ is plain data, not a prototype");
  assert.is(first.polluted, undefined);
  assert.is(Object.getPrototypeOf(second), Object.prototype);
  assert.is(Object.getPrototypeOf(seen[0]!.args), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(seen[0]!.args, "__proto__"));
  await hostAlive();
});

test("the wall time counts from the start of the code, not the sandbox's start-up", async () => {
  // Starting a worker and QuickJS takes longer than 25 ms (seconds on a loaded machine); a trivial
  // script still runs within a 25 ms limit, because the limit starts when the sandbox does.
  const started = Date.now();
  const result = await run("return 'quick';", echoHost(), { timeoutMs: 25 });
  assert.equal(result, { ok: true, result: "quick", logs: [], calls: [] }, `took ${Date.now() - started} ms in all`);
  const spinning = await run("while (true) {}", echoHost(), { timeoutMs: 25 });
  expectError(spinning, "timeout", /25 ms/);
});

test("an infinite loop ends as a timeout and the host stays responsive", async () => {
  const started = Date.now();
  let ticks = 0;
  const ticker = setInterval(() => (ticks += 1), 50);
  const result = await run("while (true) {}", echoHost(), { timeoutMs: 1_500 });
  clearInterval(ticker);
  expectError(result, "timeout", /1500 ms/);
  assert.ok(Date.now() - started < 1_500 + 5_000, "ended near the limit");
  assert.ok(ticks > 3, `the host's event loop kept running during the loop (${ticks} ticks)`);
  const asyncLoop = await run("for (;;) await null;", echoHost(), { timeoutMs: 1_500 });
  expectError(asyncLoop, "timeout");
  await hostAlive();
});

test("memory bombs end as memory errors (many allocations, one huge allocation, many objects)", async () => {
  const memoryBytes = 32 * 1024 * 1024;
  const bombs = [
    "const kept = []; for (;;) kept.push(new ArrayBuffer(4 * 1024 * 1024));",
    `const kept = []; for (let i = 0; ; i++) kept.push("y".repeat(4e6) + i);`,
    `return "x".repeat(1e9).length;`,
    "const kept = []; for (;;) kept.push({ a: Math.random(), b: [1, 2, 3] });",
  ];
  for (const code of bombs)
    expectError(await run(code, echoHost(), { memoryBytes, timeoutMs: 20_000 }), "memory", /33554432 bytes/);
  // Below the limit, the same kind of work succeeds.
  const fits = await run(
    `const kept = []; for (let i = 0; i < 3; i++) kept.push("y".repeat(1e6) + i); return kept.length;`,
    echoHost(),
    { memoryBytes },
  );
  assert.is(fits.ok && fits.result, 3);
  await hostAlive();
});

test("deep recursion is a stack overflow exception, not a crash", async () => {
  expectError(
    await run("function down(n) { return down(n + 1) + 1; } return down(0);"),
    "exception",
    /stack overflow|too much recursion/i,
  );
  await hostAlive();
});

test("a huge result is refused; huge logs are truncated with a marker", async () => {
  expectError(await run(`return "x".repeat(200000);`), "result-size", /200002 bytes/);
  const small = await run(`return "é".repeat(60000);`, echoHost(), { maxResultBytes: 100_000 });
  expectError(small, "result-size", /120002 bytes/);
  const logs = await run(
    `for (let i = 0; i < 20000; i++) console.log("line " + i + " " + "y".repeat(100)); return "done";`,
  );
  assert.is(logs.ok, true, JSON.stringify(logs).slice(0, 300));
  assert.ok(logs.logs.length < 1_000, `${logs.logs.length} lines kept`);
  assert.match(logs.logs[logs.logs.length - 1]!, /dropped/);
  await hostAlive();
});

test("thousands of calls stop at the calls limit; the host saw no more than the limit", async () => {
  const seen: Array<{ name: string; args: Record<string, unknown> }> = [];
  const result = await run(
    `const all = []; for (let i = 0; i < 5000; i++) all.push(api.getPet({ i }).catch(() => null)); await Promise.all(all); return "finished";`,
    echoHost(seen),
    { maxCalls: 25 },
  );
  expectError(result, "calls", /more than 25 api calls/);
  assert.ok(seen.length <= 25, `${seen.length} calls reached the host`);
  const sequential = await run(
    `for (let i = 0; i < 5000; i++) { try { await api.getPet({ i }); } catch {} } return "finished";`,
    echoHost(),
    { maxCalls: 10 },
  );
  expectError(sequential, "calls");
  if (!sequential.ok) assert.is(sequential.calls.length, 10);
  await hostAlive();
});

test("api errors carry status and a body excerpt; bad arguments and unknown names are refused", async () => {
  const result = await run(`
    const out = {};
    try { await api.getPet({ fail: true }); } catch (error) { out.error = [error instanceof Error, error.message, error.status, error.body.length]; }
    try { await api.getPet([1, 2]); } catch (error) { out.array = error.message; }
    try { await api.getPet("x"); } catch (error) { out.string = error.message; }
    out.odd = (await api["odd-name"]()).name;
    out.unknown = typeof api.deleteEverything;
    api.getPet = null;
    out.frozen = typeof api.getPet;
    return out;`);
  assert.is(result.ok, true, JSON.stringify(result));
  if (!result.ok) return;
  assert.equal(result.result, {
    error: [true, "Upstream HTTP 404 Not Found", 404, 2_000],
    array: "api.getPet(args): args must be an object",
    string: "api.getPet(args): args must be an object",
    odd: "odd-name",
    unknown: "undefined",
    frozen: "function",
  });
});

test("syntax errors, thrown values and never-settling promises are reported", async () => {
  expectError(await run("return {"), "syntax", /SyntaxError/);
  expectError(await run(`throw new RangeError("bad range");`), "exception", /RangeError: bad range/);
  expectError(await run(`throw "plain";`), "exception", /plain/);
  expectError(await run("await new Promise(() => {});"), "exception", /never settles/);
  const undefinedResult = await run("console.log(1, { a: [2] }, null);");
  assert.equal(undefinedResult, { ok: true, result: null, logs: ['1 {"a":[2]} null'], calls: [] });
});

test("the abort signal ends a run waiting on a call and a CPU-bound run; in-flight calls see the abort", async () => {
  let callSignal: AbortSignal | undefined;
  let called!: () => void;
  const callArrived = new Promise<void>((resolve) => (called = resolve));
  const waiting: CodeHost = {
    toolNames: ["slow"],
    call: (_name, _args, signal) =>
      new Promise((resolve) => {
        callSignal = signal;
        called();
        signal.addEventListener("abort", () => resolve({ ok: false, error: { message: "aborted" } }));
      }),
  };
  const controller = new AbortController();
  const pending = run("return await api.slow({});", waiting, {}, controller.signal);
  await within(callArrived, 20_000, "the script's api.slow() call reaches the host");
  controller.abort();
  expectError(await pending, "aborted");
  assert.is(callSignal!.aborted, true);

  const cpu = new AbortController();
  const spinning = run("for (;;) {}", echoHost(), { timeoutMs: 20_000 }, cpu.signal);
  setTimeout(() => cpu.abort(), 300);
  const started = Date.now();
  expectError(await spinning, "aborted");
  assert.ok(Date.now() - started < 10_000);

  const before = new AbortController();
  before.abort();
  expectError(await run("return 1;", echoHost(), {}, before.signal), "aborted");
  await hostAlive();
});

test("a huge thrown value obeys the result-size limit, in the run's error and in the execute_code result", async () => {
  // Issue 30, finding 3: `throw 's'.repeat(25000000)` came back as a 50 MB tool result.
  for (const code of [
    `throw "s".repeat(5000000);`,
    `throw new Error("e".repeat(5000000));`,
    `throw { big: "o".repeat(5000000) };`,
  ]) {
    const result = await run(code, echoHost(), { maxResultBytes: 10_000 });
    expectError(result, "exception", /cut at 10000 bytes/);
    if (result.ok) return;
    assert.ok(Buffer.byteLength(result.error.message) <= 10_000, `${result.error.message.length} characters`);
    const bytes = Buffer.byteLength(JSON.stringify(codeToolResult(result)));
    assert.ok(bytes < 25_000, `${bytes} bytes of tool result`);
  }
  await hostAlive();
});

test("a call still running when the script returns is listed as unfinished (and cancelled)", async () => {
  // Issue 30, finding 6: such a call had reached the upstream but was missing from `calls`.
  let callSignal: AbortSignal | undefined;
  const slow: CodeHost = {
    toolNames: ["slow", "getPet"],
    call: (name, args, signal) =>
      name === "getPet"
        ? Promise.resolve({ ok: true, value: args })
        : new Promise((resolve) => {
            callSignal = signal;
            signal.addEventListener("abort", () => resolve({ ok: false, error: { message: "aborted" } }));
          }),
  };
  const result = await run(`await api.getPet({ a: 1 }); api.slow({}).catch(() => {}); return "left early";`, slow);
  assert.is(result.ok, true, JSON.stringify(result));
  assert.equal(
    result.calls.map(({ ms: _ms, ...call }) => call),
    [
      { name: "getPet", ok: true },
      { name: "slow", ok: false, unfinished: true },
    ],
  );
  assert.is(callSignal?.aborted, true, "the unfinished call was cancelled");
});

test("code longer than MAX_CODE_CHARS is refused before a sandbox starts", async () => {
  expectError(await run(`//${"x".repeat(MAX_CODE_CHARS)}\nreturn 1;`), "code-size", /over the limit of 100000/);
  assert.equal(await run(`//${"x".repeat(MAX_CODE_CHARS - 20)}\nreturn 1;`), {
    ok: true,
    result: 1,
    logs: [],
    calls: [],
  });
});

test("concurrent runs are isolated from each other", async () => {
  const [a, b] = await Promise.all([
    run("globalThis.shared = 'a'; return globalThis.shared;"),
    run("return typeof globalThis.shared;"),
  ]);
  assert.equal([a.ok && a.result, b.ok && b.result], ["a", "undefined"]);
});

test.run();
