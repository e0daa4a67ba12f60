/**
 * Fuzz messages for an MCP server: random lines and grammar-based JSON-RPC of both protocol eras
 * (legacy: `initialize` and no `_meta`; modern 2026-07-28: per-request `_meta` with the protocol
 * version and client capabilities). Everything comes from a seeded Prng, so a run is reproducible.
 */
import type { Prng } from "./prng.js";

const MODERN = "2026-07-28";
const VERSIONS = [
  MODERN,
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "1999-01-01",
  "",
  "DRAFT-2026-v1",
  "2026-07-28-RC",
];
// tools/call is listed several times: it is where arguments, validation and the upstream meet.
const METHODS = [
  "tools/call",
  "tools/call",
  "tools/call",
  "tools/call",
  "tools/call",
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "server/discover",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "elicitation/create",
  "sampling/createMessage",
];
const ODD_METHODS = [
  "",
  "tools",
  "tools/",
  "/tools/list",
  "TOOLS/LIST",
  "rpc.discover",
  "__proto__",
  "constructor",
  "toString",
  "x".repeat(300),
  "tools/list\u0000",
  "notifications/",
];
const STRINGS = [
  "",
  " ",
  "a",
  "..",
  ".",
  "%2e%2e",
  "../../etc/passwd",
  "\u0000",
  "\r\n",
  "\u2028",
  "é",
  "😀",
  "\ud800",
  "<script>",
  "${x}",
  "{{x}}",
  "__proto__",
  "constructor",
  "null",
  "0",
  "-1",
  "1e309",
  "http://user:pass@h/",
  "file:///etc/hostname",
  "openapi://document",
];
const KEYS = [
  "a",
  "name",
  "petId",
  "id",
  "__proto__",
  "constructor",
  "prototype",
  "_meta",
  "cursor",
  "arguments",
  "params",
  "",
  "x-y",
  "😀",
];
const PRINTABLE = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/** What the messages may refer to on the server under test. */
export interface FuzzTarget {
  /** Each tool's argument names and a valid sample of its arguments. */
  tools: Array<{ name: string; properties: string[]; sample: Record<string, unknown> }>;
}

/** A random JSON value, at most `depth` levels deep. */
export function randomValue(r: Prng, depth = 3): unknown {
  const kind = r.int(0, depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1, 2 ** 53, -(2 ** 63), 1.5, 1e308, -0, r.int(-1000, 1000)]);
    case 3:
    case 4:
      return r.pick(STRINGS);
    case 5:
      return r.text(r.int(0, 40), PRINTABLE);
    case 6:
      return r.chance(0.05) ? "x".repeat(r.int(1000, 20_000)) : r.text(r.int(0, 8), "abc\u00e9\u4e2d");
    case 7:
    case 8: {
      const object: Record<string, unknown> = {};
      for (let i = r.int(0, 4); i > 0; i--)
        Object.defineProperty(object, r.pick(KEYS), {
          value: randomValue(r, depth - 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return object;
    }
    default:
      return Array.from({ length: r.int(0, 4) }, () => randomValue(r, depth - 1));
  }
}

function randomId(r: Prng): unknown {
  return r.pick<() => unknown>([
    () => r.int(0, 1_000_000),
    () => `id-${r.int(0, 1000)}`,
    () => r.int(-5, 5),
    () => 1.5,
    () => null,
    () => "",
    () => true,
    () => ({ a: 1 }),
    () => [1],
    () => 2 ** 60,
  ])();
}

function modernMeta(r: Prng): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (r.chance(0.95))
    meta["io.modelcontextprotocol/protocolVersion"] = r.chance(0.8)
      ? MODERN
      : r.pick<unknown>([...VERSIONS, 42, null, {}]);
  if (r.chance(0.9)) {
    meta["io.modelcontextprotocol/clientCapabilities"] = r.pick<unknown>([
      {},
      { extensions: { "io.modelcontextprotocol/tasks": {} } },
      { elicitation: {}, sampling: {}, roots: {} },
      "yes",
      null,
      randomValue(r, 2),
    ]);
  }
  if (r.chance(0.2)) meta.progressToken = randomValue(r, 1);
  return meta;
}

function toolArguments(r: Prng, target: FuzzTarget, name: string): unknown {
  if (r.chance(0.1)) return randomValue(r, 2);
  const tool = target.tools.find((t) => t.name === name);
  // Valid arguments (the generator's sample), so calls also reach the upstream.
  if (tool && r.chance(0.4)) return { ...tool.sample };
  const args: Record<string, unknown> = {};
  for (const property of tool?.properties ?? []) {
    if (r.chance(0.6))
      args[property] = r.chance(0.5) ? r.pick<unknown>([1, 7, "Rex", "available", ["a"], ".."]) : randomValue(r, 2);
  }
  if (r.chance(0.2)) Object.defineProperty(args, r.pick(KEYS), { value: randomValue(r, 2), enumerable: true });
  return args;
}

function params(r: Prng, method: string, target: FuzzTarget): unknown {
  if (r.chance(0.05)) return randomValue(r, 2);
  switch (method) {
    case "initialize":
      return {
        protocolVersion: r.pick<unknown>([...VERSIONS, 5, null]),
        capabilities: r.chance(0.8) ? {} : randomValue(r, 2),
        clientInfo: r.chance(0.9) ? { name: "fuzz", version: "1.0.0" } : randomValue(r, 1),
      };
    case "tools/call": {
      const name = r.chance(0.85) ? r.pick(target.tools).name : r.pick(STRINGS);
      return { name, arguments: toolArguments(r, target, name), ...(r.chance(0.1) ? { task: randomValue(r, 1) } : {}) };
    }
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      return { uri: r.pick<unknown>(["openapi://document", ...STRINGS, 1]) };
    case "prompts/get":
      return { name: r.pick(STRINGS), arguments: randomValue(r, 1) };
    case "completion/complete":
      return {
        ref: r.pick<unknown>([
          { type: "ref/resource", uri: "openapi://document" },
          { type: "ref/prompt", name: "x" },
          randomValue(r, 1),
        ]),
        argument: { name: r.pick(STRINGS), value: r.pick(STRINGS) },
      };
    case "logging/setLevel":
      return { level: r.pick<unknown>(["debug", "info", "error", "emergency", "nope", 3]) };
    case "tasks/get":
    case "tasks/update":
    case "tasks/cancel":
      return { taskId: r.pick<unknown>([`task-${r.int(0, 3)}`, ...STRINGS, 7]), inputResponses: randomValue(r, 1) };
    case "notifications/cancelled":
      return { requestId: randomId(r), reason: r.pick(STRINGS) };
    case "tools/list":
    case "resources/list":
    case "prompts/list":
      return r.chance(0.5) ? {} : { cursor: r.pick<unknown>(["", "abc", "MA", "eyJ0IjoxfQ", ...STRINGS, 5]) };
    default:
      return r.chance(0.7) ? {} : randomValue(r, 2);
  }
}

/** One grammar-based JSON-RPC message (object), legacy or modern. */
export function rpcMessage(r: Prng, target: FuzzTarget): Record<string, unknown> {
  const method = r.chance(0.93) ? r.pick(METHODS) : r.pick(ODD_METHODS);
  const message: Record<string, unknown> = {};
  if (r.chance(0.97)) message.jsonrpc = r.chance(0.97) ? "2.0" : r.pick<unknown>(["1.0", 2, null, "2.0 "]);
  const notification = method.startsWith("notifications/") ? r.chance(0.9) : r.chance(0.05);
  if (!notification) message.id = randomId(r);
  if (r.chance(0.98)) message.method = method;
  const body = params(r, method, target);
  const modern = r.chance(0.5);
  if (modern && body !== null && typeof body === "object" && !Array.isArray(body))
    (body as Record<string, unknown>)._meta = modernMeta(r);
  if (r.chance(0.95)) message.params = body;
  if (r.chance(0.03)) message.result = randomValue(r, 1);
  if (r.chance(0.03)) message.error = { code: r.int(-33000, -32000), message: "x" };
  return message;
}

/** One line to send: mostly JSON-RPC (sometimes a batch), otherwise garbage or broken JSON. Never contains a newline. */
export function fuzzLine(r: Prng, target: FuzzTarget): string {
  const roll = r.next();
  if (roll < 0.72) return JSON.stringify(rpcMessage(r, target));
  if (roll < 0.8) return JSON.stringify(Array.from({ length: r.int(0, 5) }, () => rpcMessage(r, target)));
  if (roll < 0.86) {
    const text = JSON.stringify(rpcMessage(r, target));
    return text.slice(0, r.int(0, text.length - 1));
  }
  if (roll < 0.9) return JSON.stringify(randomValue(r, 3)) ?? "null";
  if (roll < 0.93) return r.text(r.int(0, 200), PRINTABLE + "\t\u0000\u0001\u007f\u00ff\ufeff");
  if (roll < 0.95)
    return r.pick([
      "",
      " ",
      "{}",
      "[]",
      "null",
      "{",
      "]",
      '{"jsonrpc":"2.0"}',
      "\ufeff{}",
      '{"jsonrpc":"2.0","id":1,"method":"ping"}garbage',
    ]);
  if (roll < 0.97) {
    // Deep nesting, bounded.
    const depth = r.int(100, 5_000);
    return "[".repeat(depth) + "]".repeat(depth);
  }
  const text = JSON.stringify(rpcMessage(r, target));
  // A duplicate key, as JSON.parse keeps the last one.
  return text.replace(/^\{/, '{"id":"dup","method":"ping",');
}

const ACTION_WORDS = [
  "get",
  "show",
  "list",
  "make",
  "create",
  "new",
  "add",
  "delete",
  "remove",
  "update",
  "find",
  "view",
];

/** A query for search_operations, often hostile: many words (action verbs among them), ids, repeats, odd characters. */
function hostileQuery(r: Prng): unknown {
  return r.pick<() => unknown>([
    () => "list pets",
    () =>
      Array.from({ length: r.chance(0.5) ? r.int(1, 150) : r.int(150, 20_000) }, (_, i) =>
        i % 2 ? r.pick(ACTION_WORDS) : r.text(r.int(1, 8), "abcdefgh"),
      ).join(" "),
    () => `pay ${"cus_1Ab ".repeat(r.int(1, 5_000))}`,
    () => "a-".repeat(r.int(1, 50_000)),
    () => '"'.repeat(r.int(1, 10_000)),
    () => "x".repeat(r.int(990, 1_010)),
    () => r.text(r.int(0, 2_000), PRINTABLE + "\u202e\u2028😀é"),
    () => randomValue(r, 1),
  ])();
}

/** A script for execute_code, often hostile: huge throws, results and logs, many calls, calls left running, spinning, oversized code. */
function hostileScript(r: Prng, target: FuzzTarget): string {
  const tool = r.pick(target.tools);
  const call = `api[${JSON.stringify(tool.name)}](${JSON.stringify(r.chance(0.7) ? tool.sample : randomValue(r, 1))})`;
  const big = () => r.int(1, 5_000_000);
  // Some are plain calls with the tool's valid sample, so runs also reach the upstream.
  if (r.chance(0.4)) return `return await api[${JSON.stringify(tool.name)}](${JSON.stringify(tool.sample)});`;
  return r.pick<() => string>([
    () => `throw "s".repeat(${big()});`,
    () => `throw new Error("e".repeat(${big()}));`,
    () => `throw { big: "o".repeat(${big()}), list: [1, 2, 3] };`,
    () => `return "r".repeat(${big()});`,
    () => `for (let i = 0; i < ${r.int(1, 200)}; i++) await ${call}.catch(() => 0); return 1;`,
    () =>
      `return (await Promise.all(Array.from({ length: ${r.int(1, 500)} }, () => ${call}.catch((e) => e.message)))).length;`,
    () => `${call}.catch(() => 0); ${call}.catch(() => 0); return "left early";`,
    () => `try { return await ${call}; } catch (error) { return [error.message, error.status]; }`,
    () => `for (let i = 0; i < ${r.int(1, 100_000)}; i++) console.log("y".repeat(${r.int(1, 1_000)})); return 3;`,
    () => "for (;;) {}",
    () => `//${"x".repeat(r.int(99_990, 100_010))}\nreturn 4;`,
    () => r.text(r.int(0, 300), PRINTABLE),
  ])();
}

/**
 * One `tools/call` of a code-surface meta tool (search_operations, describe_operation,
 * execute_code) with hostile inputs, in either era; never contains a newline.
 */
export function codeSurfaceLine(r: Prng, target: FuzzTarget): string {
  const roll = r.next();
  const [name, args] =
    roll < 0.4
      ? [
          "search_operations",
          { query: hostileQuery(r), ...(r.chance(0.2) ? { limit: r.pick<unknown>([1, 50, 51, 0, "x"]) } : {}) },
        ]
      : roll < 0.5
        ? [
            "describe_operation",
            { name: r.chance(0.5) ? r.pick(target.tools).name : r.pick([...STRINGS, "n".repeat(r.int(200, 5_000))]) },
          ]
        : ["execute_code", { code: hostileScript(r, target) }];
  const params: Record<string, unknown> = { name, arguments: args };
  if (r.chance(0.5)) params._meta = modernMeta(r);
  return JSON.stringify({ jsonrpc: "2.0", id: r.int(0, 1_000_000), method: "tools/call", params });
}
