/**
 * `npm run test:scale`: several instances of a generated server behind a real load balancer with
 * shared state. redis-server and nginx come from the Debian packages (scripts/setup-scale.js
 * installs them when missing) and run here on free loopback ports; everything is bounded in time
 * and stopped at the end.
 *
 * The petstore example (plus a custom tool that asks a question as a task) runs as three
 * instances (`--http --sessions --state redis://…`) behind nginx, round robin without
 * stickiness. Clients, all through nginx: SDK 1.x clients (legacy sessions, which land on every
 * instance), client 2.x clients (modern, stateless) and raw modern task clients whose tasks are
 * created, polled, answered (`input_required`) and cancelled through whichever instance nginx
 * picks. Mid-run one instance gets SIGTERM (it drains) and another SIGKILL (its in-flight calls
 * fail visibly: nginx answers 502 for them; its tasks are reported failed by the others).
 *
 * Passes when every error is explained (a 502 from the killed instance at or after its kill) and
 * every task reaches a final state. Prints calls, errors by cause, p50/p99 latency and RSS per
 * instance. Environment: SCALE_CLIENTS (default 50), SCALE_SECONDS (default 24).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { compileProject, freePort, startHttpServer, stopChild, type HttpServerHandle } from "../support/e2e.js";
import { scaleBinaries, startRedis, type RedisHandle } from "../support/redis-fixture.js";
import { materializeExample } from "../support/example-custom.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const CLIENTS = Number(process.env.SCALE_CLIENTS ?? 50);
const SECONDS = Number(process.env.SCALE_SECONDS ?? 24);
const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The custom tool of the scale server: works 300 ms, then asks a question (a task by then). */
const CUSTOM = `import { defineExtension } from "../runtime/features/custom/define-extension.js";
export default defineExtension({
  tools: [
    {
      name: "ask_colour",
      description: "Asks the user for a colour, then echoes it.",
      inputSchema: { type: "object", properties: {} },
      taskSupport: "optional",
      handler: async (_args, tools) => {
        const answer = tools.inputResponses.colour;
        if (answer) return { content: [{ type: "text", text: "colour " + JSON.stringify(answer.content) }] };
        await new Promise((resolve) => setTimeout(resolve, 300));
        return tools.inputRequired({ colour: { method: "elicitation/create", params: { message: "Colour?", requestedSchema: { type: "object", properties: { v: { type: "string" } } } } } }, { asked: true });
      },
    },
  ],
});
`;

interface Outcome {
  kind: string;
  ms: number;
  /** Wall-clock time the call started (ms since the run's start). */
  at: number;
  ok: boolean;
  cause?: string;
  /** The last HTTP exchange of a failed operation. */
  last?: Exchange;
}

/** Every HTTP exchange through nginx: status and the instance nginx chose (X-Upstream). */
interface Exchange {
  at: number;
  status: number;
  upstream: string;
  /** The start of the body of a 5xx answer. */
  error?: string;
}

async function main(): Promise<number> {
  const { redis: redisBinary, nginx: nginxBinary } = await scaleBinaries();
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-scale-"));
  const dir = join(work, "petstore");
  await materializeExample(root, "petstore", dir, ["tasks", "redis", "sessions"]);
  writeFileSync(join(dir, "src", "custom", "index.ts"), CUSTOM);
  await compileProject(dir);

  const children: ChildProcess[] = [];
  const instances: HttpServerHandle[] = [];
  let redis: RedisHandle | undefined;
  let upstream: Upstream | undefined;
  try {
    // The upstream: fast pets, slow pets (tasks), and pets that never answer (cancelled).
    upstream = await startUpstream((r) => {
      const id = Number(/\/pets\/(\d+)/.exec(r.url)?.[1] ?? 0);
      const pet = {
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id, name: `pet ${id}` }),
      };
      if (id >= 9000) return "hang";
      if (id >= 5000) return { ...pet, delayMs: 600 + (id % 7) * 150 };
      return pet;
    });
    redis = await startRedis(redisBinary);
    const lbPort = await freePort();
    const serverArgs = [
      "--sessions",
      "--state",
      redis.url,
      "--task-after",
      "200",
      "--shutdown-grace",
      "10000",
      "--base-url",
      upstream.baseUrl,
      "--allowed-hosts",
      `127.0.0.1:${lbPort},localhost:${lbPort}`,
    ];
    // The instances share Redis only encrypted, with one secret (inherited through the environment).
    process.env.MCP_STATE_SECRET = "scale-test-state-secret-0123456789abcdef";
    for (let i = 0; i < 3; i++) instances.push(await startHttpServer(dir, serverArgs));
    const addresses = instances.map((instance) => `127.0.0.1:${instance.url.port}`);

    const nginx = startNginx(nginxBinary, work, lbPort, addresses);
    children.push(nginx.child);
    const endpoint = `http://127.0.0.1:${lbPort}/mcp`;
    await waitForHttp(endpoint);

    const started = Date.now();
    const exchanges: Exchange[] = [];
    const outcomes: Outcome[] = [];
    /** A fetch that records every exchange (in `mine` too, when given). */
    const trackedFor =
      (mine?: Exchange[]): typeof fetch =>
      async (input, init) => {
        const response = await fetch(input, init);
        const exchange: Exchange = {
          at: Date.now() - started,
          status: response.status,
          upstream: response.headers.get("x-upstream") ?? "",
        };
        if (response.status >= 500) exchange.error = (await response.clone().text()).slice(0, 300);
        exchanges.push(exchange);
        mine?.push(exchange);
        return response;
      };
    const until = started + SECONDS * 1000;
    /** Runs one client operation; a failure is kept with the last exchange it saw (from `mine`). */
    const record = async (kind: string, mine: Exchange[], call: () => Promise<void>): Promise<void> => {
      const at = Date.now() - started;
      const t = performance.now();
      const before = mine.length;
      try {
        await call();
        outcomes.push({ kind, ms: performance.now() - t, at, ok: true });
      } catch (error) {
        const last = mine.length > before ? mine.at(-1) : undefined;
        outcomes.push({
          kind,
          ms: performance.now() - t,
          at,
          ok: false,
          cause: error instanceof Error ? error.message.slice(0, 200) : String(error),
          ...(last ? { last } : {}),
        });
      }
    };

    // The stops: SIGTERM to instance 2 at 35 % of the run, SIGKILL to instance 3 at 60 %.
    const stops: { termAt?: number; killAt?: number; termExit?: Promise<void> } = {};
    const stopper = (async () => {
      await pause(SECONDS * 350);
      // As an orchestrator does: take the instance out of the load balancer, then SIGTERM it.
      // (Closing its listener while nginx still sends to it would reset connections nginx has
      // just opened, and nginx does not re-send a POST.)
      nginx.reload([1]);
      await pause(500);
      stops.termAt = Date.now() - started;
      process.kill(instances[1]!.pid, "SIGTERM");
      stops.termExit = exited(instances[1]!.pid, 20_000); // the drain ends by itself (grace 10 s)
      await pause(SECONDS * 250);
      stops.killAt = Date.now() - started;
      process.kill(instances[2]!.pid, "SIGKILL");
    })();

    // RSS of each instance, sampled every 500 ms: the peak is reported.
    const peakRss = instances.map(() => 0);
    const sampler = setInterval(() => {
      instances.forEach((instance, i) => {
        try {
          const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${instance.pid}/status`, "utf8"))?.[1] ?? 0);
          peakRss[i] = Math.max(peakRss[i]!, kb / 1024);
        } catch {
          // stopped
        }
      });
    }, 500);

    const taskStates = new Map<string, string>();
    const legacyClients = Math.round(CLIENTS * 0.4);
    const modernClients = Math.round(CLIENTS * 0.4);
    const taskClients = CLIENTS - legacyClients - modernClients;
    const sessionsByInstance = new Map<string, number>();
    const clients: Promise<void>[] = [];
    for (let c = 0; c < legacyClients; c++) clients.push(legacyClient(c));
    for (let c = 0; c < modernClients; c++) clients.push(modernClient(c));
    for (let c = 0; c < taskClients; c++) clients.push(taskClient(c));

    /** SDK 1.x over Streamable HTTP: a legacy session, then calls until the end (reconnecting after a failure). */
    async function legacyClient(c: number): Promise<void> {
      while (Date.now() < until) {
        const client = new ClientV1({ name: `scale-legacy-${c}`, version: "1.0.0" });
        const mine: Exchange[] = [];
        try {
          await client.connect(new HttpV1(new URL(endpoint), { fetch: trackedFor(mine) }));
          const first = mine.find((e) => e.status === 200)?.upstream ?? "?";
          sessionsByInstance.set(first, (sessionsByInstance.get(first) ?? 0) + 1);
          for (let n = 0; Date.now() < until; n++) {
            await record("legacy call", mine, async () => {
              const result = (await client.callTool({
                name: "getPet",
                arguments: { petId: 1 + ((c * 7 + n) % 50) },
              })) as { isError?: boolean };
              if (result.isError) throw new Error("tool error");
            });
            if (outcomes.at(-1)!.ok === false) break;
            await pause(20);
          }
        } catch (error) {
          outcomes.push({
            kind: "legacy connect",
            ms: 0,
            at: Date.now() - started,
            ok: false,
            cause: String(error).slice(0, 200),
          });
        } finally {
          await client.close().catch(() => {});
        }
      }
    }

    /** Client 2.x pinned to 2026-07-28: stateless calls until the end. */
    async function modernClient(c: number): Promise<void> {
      const client = new ClientV2(
        { name: `scale-modern-${c}`, version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      const mine: Exchange[] = [];
      try {
        await client.connect(new HttpV2(new URL(endpoint), { fetch: trackedFor(mine) }));
        for (let n = 0; Date.now() < until; n++) {
          await record("modern call", mine, async () => {
            const result = (await client.callTool({
              name: "getPet",
              arguments: { petId: 100 + ((c * 11 + n) % 50) },
            })) as { isError?: boolean };
            if (result.isError) throw new Error("tool error");
          });
          await pause(20);
        }
      } catch (error) {
        outcomes.push({
          kind: "modern connect",
          ms: 0,
          at: Date.now() - started,
          ok: false,
          cause: String(error).slice(0, 200),
        });
      } finally {
        await client.close().catch(() => {});
      }
    }

    /** Raw modern JSON-RPC with the tasks extension: tasks that complete, ask and get cancelled, each request through nginx. */
    async function taskClient(c: number): Promise<void> {
      let id = 0;
      const mine: Exchange[] = [];
      const fetchTask = trackedFor(mine);
      const post = async (
        method: string,
        params: Record<string, unknown>,
        name: string,
      ): Promise<Record<string, any>> => {
        const response = await fetchTask(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": method,
            "mcp-name": name,
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: ++id,
            method,
            params: {
              ...params,
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {
                  extensions: { [TASKS_EXTENSION]: {} },
                  elicitation: {},
                },
                "io.modelcontextprotocol/clientInfo": { name: `scale-tasks-${c}`, version: "1" },
              },
            },
          }),
        });
        const body = (await response.json()) as { result?: Record<string, any>; error?: { message: string } };
        if (!body.result) throw new Error(`HTTP ${response.status}: ${body.error?.message ?? "no result"}`);
        return body.result;
      };
      for (let n = 0; Date.now() < until; n++) {
        const flavour = (c + n) % 3; // 0: completes, 1: asks, 2: cancelled
        await record(["task completes", "task asks", "task cancelled"][flavour]!, mine, async () => {
          const call =
            flavour === 1
              ? { name: "ask_colour", arguments: {} }
              : { name: "getPet", arguments: { petId: flavour === 0 ? 5000 + ((c * 13 + n) % 900) : 9000 + c } };
          const created = await post("tools/call", call, call.name);
          if (created.resultType !== "task") throw new Error(`expected a task, got ${created.resultType}`);
          const taskId = created.taskId as string;
          taskStates.set(taskId, "working");
          if (flavour === 2) {
            await pause(200);
            await post("tasks/cancel", { taskId }, taskId);
          }
          const final = await pollTask(
            taskId,
            flavour === 1
              ? async () =>
                  post(
                    "tasks/update",
                    { taskId, inputResponses: { colour: { action: "accept", content: { v: `c${c}` } } } },
                    taskId,
                  )
              : undefined,
          );
          taskStates.set(taskId, final);
        });
        await pause(50);
      }
      /** Polls through nginx until the task is final (answering input once); bounded by the run's end + 25 s. */
      async function pollTask(taskId: string, answer: (() => Promise<unknown>) | undefined): Promise<string> {
        let answered = false;
        for (const deadline = until + 25_000; Date.now() < deadline; ) {
          let task: Record<string, any>;
          try {
            task = await post("tasks/get", { taskId }, taskId);
          } catch {
            await pause(100); // a 502 from the killed instance: poll again
            continue;
          }
          taskStates.set(taskId, task.status);
          if (["completed", "failed", "cancelled"].includes(task.status)) return task.status;
          if (task.status === "input_required" && answer && !answered) {
            await answer().then(
              () => (answered = true),
              () => undefined,
            );
          }
          await pause(100);
        }
        return taskStates.get(taskId) ?? "working";
      }
    }

    await Promise.all(clients);
    await stopper;
    await stops.termExit;
    clearInterval(sampler);
    // Every task must reach a final state, also those whose client operation failed midway.
    await finishTasks(endpoint, taskStates, until + 25_000);

    // Which errors are explained: calls that failed while the killed instance held them.
    const killed = addresses[2]!;
    const killAt = stops.killAt ?? Infinity;
    // Explained 5xx answers: 502 for a request in flight on the killed instance; 503 from a live
    // instance whose command to the killed one (tasks/update, tasks/cancel) went unanswered
    // before the dead instance's heartbeat expired (the client polls again; the task ends failed).
    const explainedExchange = (e: Exchange): boolean =>
      e.at >= killAt &&
      ((e.status === 502 && e.upstream.includes(killed)) || (e.status === 503 && /did not answer/.test(e.error ?? "")));
    const badGateways = exchanges.filter((e) => e.status >= 500);
    const explainedGateways = badGateways.filter(explainedExchange);
    const failures = outcomes.filter((o) => !o.ok);
    // A failed operation is explained when its last exchange was an explained 5xx, or (an SDK
    // session whose connection to the killed instance broke) it was in flight at the kill.
    const explained = failures.filter((o) =>
      o.last ? explainedExchange(o.last) : o.at <= killAt && o.at + o.ms >= killAt - 50,
    );
    const unexplained = failures.filter((o) => !explained.includes(o));
    const unexplainedGateways = badGateways.filter((e) => !explainedGateways.includes(e));
    const tasks = [...taskStates.values()];
    const unfinished = tasks.filter((status) => !["completed", "failed", "cancelled"].includes(status));

    const report: string[] = [];
    const calls = outcomes.filter((o) => o.kind.endsWith("call"));
    const latency = (kind: string) => {
      const times = calls
        .filter((o) => o.kind === kind && o.ok)
        .map((o) => o.ms)
        .sort((a, b) => a - b);
      const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
      return `${pick(0.5).toFixed(1)} / ${pick(0.99).toFixed(1)} ms`;
    };
    report.push(
      `scale run: ${CLIENTS} clients (${legacyClients} SDK 1.x legacy sessions, ${modernClients} client 2.x modern, ${taskClients} modern task clients) for ${SECONDS} s through nginx round robin to 3 instances sharing Redis`,
    );
    report.push(
      `SIGTERM instance 2 at ${((stops.termAt ?? 0) / 1000).toFixed(1)} s (drained), SIGKILL instance 3 at ${(killAt / 1000).toFixed(1)} s`,
    );
    report.push(
      `HTTP exchanges through nginx: ${exchanges.length}; by instance: ${addresses.map((a, i) => `#${i + 1} ${exchanges.filter((e) => e.upstream.includes(a)).length}`).join(", ")}`,
    );
    report.push(
      `legacy sessions opened: ${[...sessionsByInstance.values()].reduce((a, b) => a + b, 0)}; initialize answered by instance: ${addresses.map((a, i) => `#${i + 1} ${[...sessionsByInstance].filter(([u]) => u.includes(a)).reduce((n, [, k]) => n + k, 0)}`).join(", ")}`,
    );
    report.push(
      `tool calls: ${calls.length} (legacy ${calls.filter((o) => o.kind === "legacy call").length}, modern ${calls.filter((o) => o.kind === "modern call").length}); p50 / p99 latency: legacy ${latency("legacy call")}, modern ${latency("modern call")}`,
    );
    report.push(
      `tasks: ${tasks.length} (completed ${tasks.filter((s) => s === "completed").length}, failed ${tasks.filter((s) => s === "failed").length}, cancelled ${tasks.filter((s) => s === "cancelled").length}, unfinished ${unfinished.length})`,
    );
    const byCause = (list: Exchange[], status: number) => list.filter((e) => e.status === status).length;
    report.push(
      `errors: ${failures.length} failed client operations (${explained.length} explained by the SIGKILL, ${unexplained.length} unexplained); HTTP 5xx through nginx: ${badGateways.length} (${byCause(explainedGateways, 502)} 502 in flight on the killed instance, ${byCause(explainedGateways, 503)} 503 for commands to its tasks before its heartbeat expired, ${unexplainedGateways.length} other)`,
    );
    for (const failure of unexplained.slice(0, 10))
      report.push(
        `  unexplained: ${failure.kind} at ${failure.at} ms after ${failure.ms.toFixed(0)} ms: ${failure.cause}`,
      );
    for (const gateway of unexplainedGateways.slice(0, 10))
      report.push(
        `  unexplained HTTP ${gateway.status} at ${gateway.at} ms from ${gateway.upstream || "nginx"}: ${gateway.error ?? ""}`,
      );
    report.push(`peak RSS per instance: ${peakRss.map((mb, i) => `#${i + 1} ${mb.toFixed(0)} MB`).join(", ")}`);
    console.log(report.join("\n"));
    const ok =
      unexplained.length === 0 &&
      unexplainedGateways.length === 0 &&
      unfinished.length === 0 &&
      tasks.length > 0 &&
      calls.length > 0;
    console.log(ok ? "scale: PASS" : "scale: FAIL");
    return ok ? 0 : 1;
  } finally {
    for (const child of children) await stopChild(child);
    for (const instance of instances) await instance.stop();
    await upstream?.close();
    await redis?.stop();
  }
}

/**
 * Starts nginx in the foreground: one upstream block of `addresses`, round robin, no stickiness.
 * `reload(down)` rewrites the configuration with those instances marked down and reloads it.
 */
function startNginx(
  binary: string,
  work: string,
  port: number,
  addresses: string[],
): { child: ChildProcess; reload(down: number[]): void } {
  const prefix = join(work, "nginx");
  mkdirSync(join(prefix, "logs"), { recursive: true });
  const config = join(prefix, "nginx.conf");
  const args = ["-p", prefix, "-c", config, "-e", join(prefix, "logs", "error.log")];
  writeFileSync(config, nginxConfig(prefix, port, addresses, []));
  const child = spawn(binary, args, { stdio: ["ignore", "inherit", "inherit"] });
  process.once("exit", () => child.kill("SIGKILL"));
  return {
    child,
    reload(down) {
      writeFileSync(config, nginxConfig(prefix, port, addresses, down));
      spawnSync(binary, [...args, "-s", "reload"], { stdio: ["ignore", "inherit", "inherit"] });
    },
  };
}

/** The configuration the generated README documents, with test paths and ports; instances in `down` get no new requests. */
export function nginxConfig(prefix: string, port: number, addresses: string[], down: number[]): string {
  // Workers run as the user that starts nginx (root in CI), so they can use the temp paths here.
  const user = process.getuid?.() === 0 ? "user root root;\n" : "";
  return `${user}daemon off;
worker_processes 1;
pid ${join(prefix, "nginx.pid")};
error_log ${join(prefix, "logs", "error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  # The reload before the SIGTERM closes the old worker's idle client connections; a client that
  # reuses one at that moment gets "other side closed" (no retry for POST). One request per client
  # connection keeps the reload clean (the generated README's config does not need this).
  keepalive_timeout 0;
  client_body_temp_path ${join(prefix, "body")};
  proxy_temp_path ${join(prefix, "proxy")};
  fastcgi_temp_path ${join(prefix, "fastcgi")};
  uwsgi_temp_path ${join(prefix, "uwsgi")};
  scgi_temp_path ${join(prefix, "scgi")};
  upstream mcp_instances {
${addresses.map((address, i) => `    server ${address} max_fails=1 fail_timeout=2s${down.includes(i) ? " down" : ""};`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location /mcp {
      proxy_pass http://mcp_instances;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_read_timeout 60s;
      # One connection per request (no upstream keepalive): a draining instance has stopped
      # listening, so nginx cannot reach it and sends the request to another instance (it was
      # never sent, so POST is safe to retry). A request already sent is never re-sent
      # (no non_idempotent): a killed instance's in-flight calls fail visibly with 502.
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Resolves once process `pid` has exited, or after `ms`. */
async function exited(pid: number, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await pause(50)) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
}

/** Polls (through nginx) each task not yet final until it is, or until `deadline`. */
async function finishTasks(endpoint: string, states: Map<string, string>, deadline: number): Promise<void> {
  const final = (status: string | undefined) => ["completed", "failed", "cancelled"].includes(status ?? "");
  while (Date.now() < deadline && [...states.values()].some((status) => !final(status))) {
    for (const [taskId, status] of states) {
      if (final(status)) continue;
      const response = await fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tasks/get",
          "mcp-name": taskId,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tasks/get",
          params: {
            taskId,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
            },
          },
        }),
      }).catch(() => undefined);
      const body = (await response?.json().catch(() => undefined)) as { result?: { status?: string } } | undefined;
      if (body?.result?.status) states.set(taskId, body.result.status);
    }
    await pause(250);
  }
}

/** Waits until `url` answers HTTP at all (nginx and an instance up). */
async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      return;
    } catch {
      await pause(100);
    }
  }
  throw new Error(`${url} did not answer`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(3);
    },
  );
}
