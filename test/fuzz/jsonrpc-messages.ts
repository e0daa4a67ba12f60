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
