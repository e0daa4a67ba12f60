/**
 * A server generated without a feature, started with a flag or variable of that feature, exits 2
 * with a message naming the mcp-gen option that adds it, and starts nothing (no crash on a missing
 * module). The same flags with the feature present get past that check.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { main } from "../../runtime/src/cli/main.js";
import { FEATURE_SETTINGS, type Feature } from "../../runtime/src/cli/features.js";
import { auth } from "../../runtime/src/features/auth/index.js";
import { clients } from "../../runtime/src/features/clients/index.js";
import { code } from "../../runtime/src/features/code/index.js";
import { confirm } from "../../runtime/src/features/confirm/index.js";
import { uploads } from "../../runtime/src/features/uploads/index.js";
import { serverVars } from "../../runtime/src/features/server-vars/index.js";
import { legacySse } from "../../runtime/src/features/legacy-sse/index.js";
import { oauth } from "../../runtime/src/features/oauth/index.js";
import { redis } from "../../runtime/src/features/redis/index.js";
import { search } from "../../runtime/src/features/search/index.js";
import { sessions } from "../../runtime/src/features/sessions/index.js";
import { tasks } from "../../runtime/src/features/tasks/index.js";
import { userOauth } from "../../runtime/src/features/user-oauth/index.js";
import { printConfig } from "../../runtime/src/features/print-config/index.js";
import { toolsets } from "../../runtime/src/features/toolsets/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { rateLimit } from "../../runtime/src/features/rate-limit/index.js";
import { info, sampleTools } from "../support/runtime-fixture.js";

/** Runs `main` with `argv` (and `env` set meanwhile); resolves to what it wrote on stderr and the exit code. */
async function start(
  argv: string[],
  features: Feature[] = [],
  env: Record<string, string> = {},
  tools = sampleTools(),
): Promise<{ stderr: string; code: number | undefined; started: boolean }> {
  const previous = process.exitCode;
  const write = process.stderr.write;
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  let stderr = "";
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  Object.assign(process.env, env);
  process.exitCode = undefined;
  try {
    const handle = await main(info, tools, argv, { features });
    const code = process.exitCode as number | undefined;
    await handle?.close();
    return { stderr, code, started: handle !== undefined };
  } finally {
    process.stderr.write = write;
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    process.exitCode = previous;
  }
}

/** For each feature with settings: a start that asks for it (over HTTP: a stdio server would take this process's stdin). */
const CASES: Array<{ feature: Feature; argv: string[]; env?: Record<string, string>; present?: string[] }> = [
  { feature: search, argv: ["--http", "--port", "0", "--surface", "search"] },
  { feature: code, argv: ["--http", "--port", "0", "--surface", "code"] },
  { feature: code, argv: ["--http", "--port", "0", "--code-timeout", "5000"] },
  { feature: code, argv: ["--http", "--port", "0"], env: { MCP_CODE_MAX_CALLS: "3" } },
  { feature: tasks, argv: ["--http", "--port", "0", "--task-after", "100"] },
  // With the feature present, "memory" (no Redis client left retrying after the test).
  {
    feature: redis,
    argv: ["--http", "--port", "0", "--state", "redis://127.0.0.1:1/0"],
    present: ["--http", "--port", "0", "--state", "memory"],
  },
  { feature: redis, argv: ["--http", "--port", "0"], env: { MCP_STATE_URL: "memory" } },
  { feature: oauth, argv: ["--http", "--port", "0", "--oauth-issuer", "https://issuer.example"] },
  { feature: legacySse, argv: ["--http", "--port", "0", "--legacy-sse"] },
  { feature: sessions, argv: ["--http", "--port", "0", "--sessions"] },
  { feature: clients, argv: ["--http", "--port", "0", "--client", "cursor"] },
  { feature: clients, argv: ["--http", "--port", "0"], env: { MCP_CLIENT: "cursor" } },
  { feature: auth, argv: ["--http", "--port", "0", "--passthrough", "X-Key=api_key"] },
  { feature: confirm, argv: ["--http", "--port", "0", "--confirm-destructive"] },
  { feature: userOauth, argv: ["--http", "--port", "0", "--trust-user-header", "X-User"] },
  { feature: serverVars, argv: ["--http", "--port", "0", "--server-var", "region=eu"] },
  { feature: uploads, argv: ["--http", "--port", "0", "--upload-timeout", "5000"] },
  { feature: uploads, argv: ["--http", "--port", "0", "--upload-allow-private"] },
  { feature: uploads, argv: ["--http", "--port", "0"], env: { MCP_UPLOAD_MAX_BYTES: "1000" } },
  { feature: toolsets, argv: ["--http", "--port", "0", "--toolsets", "pets"] },
  { feature: toolsets, argv: ["--http", "--port", "0", "--read-only"] },
  { feature: toolsets, argv: ["--http", "--port", "0", "--exclude-operations", "GET /pets/*"] },
  { feature: toolsets, argv: ["--http", "--port", "0"], env: { MCP_TOOLSETS: "pets" } },
  { feature: printConfig, argv: ["--http", "--port", "0", "--print-config", "cursor"] },
  { feature: rateLimit, argv: ["--http", "--port", "0", "--rate-limit", "60/min"] },
  { feature: rateLimit, argv: ["--http", "--port", "0", "--tool-rate-limit", "getPet=5/s"] },
  { feature: rateLimit, argv: ["--http", "--port", "0"], env: { MCP_RATE_LIMIT: "60/min" } },
];

test("every setting of FEATURE_SETTINGS names a feature, and each feature with settings has a case here", () => {
  const covered = new Set(CASES.map((c) => c.feature.name));
  for (const feature of new Set(Object.values(FEATURE_SETTINGS))) assert.ok(covered.has(feature), feature);
});

for (const { feature, argv, env } of CASES) {
  const what = [
    ...argv.filter((a) => a.startsWith("--") && a !== "--http" && a !== "--port"),
    ...Object.keys(env ?? {}),
  ];
  test(`without ${feature.name}: ${what.join(" ")} exits 2 naming mcp-gen --with ${feature.name}`, async () => {
    const run = await start(argv, [], env);
    assert.is(run.code, 2, run.stderr);
    assert.not.ok(run.started);
    assert.match(run.stderr, `needs the ${feature.name} feature`);
    assert.match(run.stderr, `mcp-gen --with ${feature.name}`);
  });
}

test("with the feature, the same settings get past the check (the server starts, or fails for another reason)", async () => {
  for (const { feature, argv, env, present } of CASES) {
    const needed = feature.name === "code" ? [search, code] : [feature];
    const run = await start(present ?? argv, needed, env);
    assert.not.match(run.stderr, "feature, which this server was generated without", `${feature.name}: ${run.stderr}`);
  }
});

test("a feature's flags are parsed only in a server that has it, and its HTTP-only flags still need --http", async () => {
  const withSessions = await start(["--sessions"], [sessions]);
  assert.is(withSessions.code, 2);
  assert.match(withSessions.stderr, /--sessions, --legacy-sse require --http/);
  const unknown = await start(["--no-such-flag"], [sessions]);
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, "Unknown option '--no-such-flag'");
});

test("the handle main returns closes what it opened: the transport, then the state store a feature opened", async () => {
  const closed: string[] = [];
  const store: Feature = {
    name: "redis",
    flags: { state: { type: "string" } },
    plugs: () => ({
      state: Object.assign(new MemoryStateStore(), {
        close: async () => {
          closed.push("state");
        },
      }),
    }),
  };
  const run = await start(["--http", "--port", "0", "--state", "redis://127.0.0.1:1/0"], [store], {
    MCP_STATE_SECRET: "x".repeat(32),
  });
  assert.ok(run.started, run.stderr);
  assert.equal(closed, ["state"], "a store left open keeps the process alive (Redis reconnects forever)");
});

test("auto serves search above the budget only with feature search; without it, all (and says why)", async () => {
  const [first] = sampleTools();
  const many = Array.from({ length: 45 }, (_, i) => ({ ...first!, name: `op${i}` }));
  const argv = ["--http", "--port", "0", "--surface", "auto"];
  const without = await start(argv, [], {}, many);
  assert.ok(without.started, without.stderr);
  assert.match(without.stderr, "surface all: auto: all, as this server has no search feature");
  const withSearch = await start(argv, [search], {}, many);
  assert.match(withSearch.stderr, "surface search: auto: 45 operation tools exceed the budget of 40 tools");
});

test.run();
