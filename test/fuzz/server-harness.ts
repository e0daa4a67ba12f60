/**
 * Runs a generated example server (generated/petstore, copied and transpiled) as a child process
 * and fuzzes it over stdio and Streamable HTTP. The checks: the process never exits on its own,
 * stdout carries only JSON lines, HTTP answers are never 5xx and their JSON parses, and the
 * server still answers `ping` at the end. Only the processes started here are stopped, by PID.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { sampleValue } from "../../generator/pipeline/emit/test-cases/sample-value.js";
import type { JsonSchema } from "../../runtime/src/api/types.js";
import { stopChild, repoRoot } from "../support/e2e.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { fuzzLine, type FuzzTarget } from "./jsonrpc-messages.js";
import { Prng } from "./prng.js";
import { materializeExample } from "../support/example-custom.js";

/** A generated server project ready to run (dist/index.js), and what fuzz messages can aim at. */
export interface PreparedServer {
  dir: string;
  target: FuzzTarget;
  remove(): void;
}

/**
 * Writes generated/`example` (with its vendored runtime, or freshly generated with `features`) to a
 * temporary folder and transpiles its TypeScript file by file
 * (no type check: the golden test compiles every example under strict already).
 */
export async function prepareServer(example = "petstore", features?: string[]): Promise<PreparedServer> {
  const dir = join(mkdtempSync(join(tmpdir(), "mcp-gen-fuzz-")), example);
  await materializeExample(repoRoot, example, dir, features);
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith(".ts") ? [join(d, e.name)] : [],
    );
  for (const file of walk(join(dir, "src"))) {
    const out = join(dir, "dist", relative(join(dir, "src"), file)).replace(/\.ts$/, ".js");
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, esModuleInterop: true },
      fileName: file,
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  const tools = JSON.parse(readFileSync(join(dir, "data/tools.json"), "utf8")) as Array<{
    name: string;
    inputSchema: { properties?: Record<string, unknown> };
  }>;
  const target: FuzzTarget = {
    tools: tools.map((t) => ({
      name: t.name,
      properties: Object.keys(t.inputSchema.properties ?? {}),
      sample: sampleValue(t.inputSchema as JsonSchema, t.inputSchema as Record<string, unknown>) as Record<
        string,
        unknown
      >,
    })),
  };
  return { dir, target, remove: () => rmSync(dirname(dir), { recursive: true, force: true }) };
}

/** What a fuzz run sends and checks besides the defaults. */
export interface FuzzOptions {
  /** Extra server flags (e.g. `--surface code`). */
  args?: string[];
  /** The line generator (default: fuzzLine). */
  line?: (r: Prng, target: FuzzTarget) => string;
  /** Longest answer accepted, in characters of a stdout line or an HTTP body (default: not checked). */
  maxAnswerChars?: number;
  /** How long one HTTP answer may take (default 5 s). */
  answerMs?: number;
  /** stdio: every line is a request; wait (up to this many ms) for all their answers before the final ping. */
  allAnswersMs?: number;
}

/** An upstream that answers every request at once with a small JSON body. */
export function fuzzUpstream(): Promise<Upstream> {
  return startUpstream((r) => ({
    status: r.method === "DELETE" ? 204 : 200,
    headers: { "content-type": "application/json" },
    body: r.url.includes("/pets?") || r.url.endsWith("/pets") ? '[{"id":1,"name":"Rex"}]' : '{"id":1,"name":"Rex"}',
  }));
}

/** What a fuzz run saw. */
export interface FuzzReport {
  sent: number;
  /** Lines on stdout (stdio) or responses (HTTP) checked. */
  answers: number;
  /** Everything that broke a rule, at most 20 entries. */
  failures: string[];
  pingAnswered: boolean;
  ms: number;
}

interface Child {
  process: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: () => boolean;
}

function start(dir: string, args: string[]): Child {
  const child = spawn(process.execPath, [join(dir, "dist/index.js"), ...args], {
    cwd: dir,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, MCP_CURSOR_SECRET: "fuzz" },
  });
  const kill = () =>
    child.pid !== undefined &&
    child.exitCode === null &&
    child.signalCode === null &&
    process.kill(child.pid, "SIGKILL");
  process.once("exit", kill);
  child.once("exit", () => process.off("exit", kill));
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = (stream: NodeJS.ReadableStream, into: string[]) => {
    let pending = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop()!;
      into.push(...parts);
    });
    stream.on("end", () => pending !== "" && into.push(pending));
  };
  lines(child.stdout!, stdout);
  lines(child.stderr!, stderr);
  return { process: child, stdout, stderr, exited: () => child.exitCode !== null || child.signalCode !== null };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

function note(failures: string[], text: string): void {
  if (failures.length < 20) failures.push(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

/** Sends `count` fuzz lines to the server over stdio, then a ping. */
export async function fuzzStdio(
  server: PreparedServer,
  baseUrl: string,
  count: number,
  seed: number,
  options: FuzzOptions = {},
): Promise<FuzzReport> {
  const started = Date.now();
  const r = new Prng(seed);
  const line = options.line ?? fuzzLine;
  const child = start(server.dir, ["--base-url", baseUrl, ...(options.args ?? [])]);
  const failures: string[] = [];
  let checked = 0;
  const check = () => {
    for (; checked < child.stdout.length; checked++) {
      const answer = child.stdout[checked]!;
      try {
        JSON.parse(answer);
      } catch {
        note(failures, `non-JSON line on stdout: ${JSON.stringify(answer)}`);
      }
      if (options.maxAnswerChars !== undefined && answer.length > options.maxAnswerChars)
        note(failures, `a ${answer.length}-character answer on stdout: ${answer.slice(0, 200)}`);
    }
  };
  try {
    const stdin = child.process.stdin!;
    stdin.on("error", (error) => note(failures, `stdin: ${error.message}`));
    for (let i = 0; i < count && !child.exited(); i++) {
      if (!stdin.write(line(r, server.target) + "\n")) await new Promise((resolve) => stdin.once("drain", resolve));
      if (i % 500 === 0) check();
    }
    if (options.allAnswersMs !== undefined) {
      const all = await until(() => child.exited() || child.stdout.length >= count, options.allAnswersMs);
      if (!all) note(failures, `only ${child.stdout.length} of ${count} answers within ${options.allAnswersMs} ms`);
    }
    stdin.write('{"jsonrpc":"2.0","id":"fuzz-final-ping","method":"ping"}\n');
    const pingAnswered = await until(
      () =>
        child.exited() || child.stdout.some((line) => line.includes('"fuzz-final-ping"') && line.includes('"result"')),
      30_000,
    );
    check();
    if (child.exited())
      note(
        failures,
        `the server exited (code ${child.process.exitCode}, signal ${child.process.signalCode}): ${child.stderr.slice(-5).join(" | ")}`,
      );
    return {
      sent: count,
      answers: child.stdout.length,
      failures,
      pingAnswered: pingAnswered && !child.exited(),
      ms: Date.now() - started,
    };
  } finally {
    await stopChild(child.process);
  }
}

const HEADER_CHOICES: Record<string, Array<string | undefined>> = {
  "content-type": [
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    undefined,
    "application/x-www-form-urlencoded",
  ],
  accept: [
    "application/json, text/event-stream",
    "application/json, text/event-stream",
    "application/json",
    "text/event-stream",
    "*/*",
    undefined,
    "text/html",
  ],
  "mcp-protocol-version": [
    undefined,
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2026-07-28",
    "2026-07-28",
    "garbage",
    "",
  ],
  "mcp-session-id": [undefined, undefined, undefined, "nope", "00000000-0000-0000-0000-000000000000"],
  origin: [undefined, undefined, undefined, "http://evil.example", "null", "http://127.0.0.1"],
};

/** Headers a well-behaved client would send with this body (era, method, name), so more requests get past the transport. */
function consistentHeaders(body: string): Record<string, string> {
  let message: Record<string, any>;
  try {
    message = JSON.parse(body);
  } catch {
    return {};
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) return {};
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const version = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  headers["mcp-protocol-version"] = typeof version === "string" ? version : "2025-11-25";
  // Only values fetch can send as header values (printable ASCII).
  const printable = (value: unknown): value is string => typeof value === "string" && /^[\x20-\x7e]*$/.test(value);
  if (printable(message.method)) headers["mcp-method"] = message.method;
  const name = message.params?.name ?? message.params?.uri;
  if (printable(name)) headers["mcp-name"] = name;
  return headers;
}

/** Reads a response body, giving up after `ms` (an event stream may stay open). */
async function bodyOf(response: Response, ms: number): Promise<string | undefined> {
  const timer = sleep(ms).then(() => undefined);
  return Promise.race([response.text(), timer]);
}

function checkJsonBody(contentType: string, body: string, failures: string[], what: string): void {
  if (body === "") return;
  if (contentType.includes("application/json")) {
    try {
      JSON.parse(body);
    } catch {
      note(failures, `${what}: JSON response does not parse: ${body}`);
    }
  } else if (contentType.includes("text/event-stream")) {
    for (const line of body.split("\n")) {
      if (!line.startsWith("data:")) continue;
      try {
        JSON.parse(line.slice(5));
      } catch {
        note(failures, `${what}: SSE data does not parse: ${line}`);
      }
    }
  }
}

/** Sends `count` fuzz messages as HTTP requests (8 at a time), then a ping. */
export async function fuzzHttp(
  server: PreparedServer,
  baseUrl: string,
  count: number,
  seed: number,
  options: FuzzOptions = {},
): Promise<FuzzReport> {
  const started = Date.now();
  const r = new Prng(seed);
  const line = options.line ?? fuzzLine;
  const answerMs = options.answerMs ?? 5_000;
  const child = start(server.dir, ["--http", "--port", "0", "--base-url", baseUrl, ...(options.args ?? [])]);
  const failures: string[] = [];
  try {
    await until(() => child.exited() || child.stderr.some((line) => /listening on http:\/\/\S+/.test(line)), 20_000);
    const endpoint = /listening on (http:\/\/\S+)/.exec(
      child.stderr.find((line) => /listening on http/.test(line)) ?? "",
    )?.[1];
    if (!endpoint) throw new Error(`the HTTP server did not start: ${child.stderr.join("\n")}`);
    let next = 0;
    let answers = 0;
    const worker = async () => {
      while (next < count && !child.exited()) {
        const i = next++;
        const body = line(r, server.target);
        const headers: Record<string, string> = {};
        for (const [name, choices] of Object.entries(HEADER_CHOICES)) {
          const value = r.pick(choices);
          if (value !== undefined) headers[name] = value;
        }
        if (r.chance(0.5)) {
          delete headers["mcp-session-id"];
          delete headers.origin;
          Object.assign(headers, consistentHeaders(body));
        }
        const method = r.chance(0.97) ? "POST" : r.pick(["GET", "DELETE", "PUT", "OPTIONS"]);
        const path = r.chance(0.97) ? "" : r.pick(["/../mcp", "x", "/", "?a=1"]);
        const controller = new AbortController();
        try {
          const response = await fetch(endpoint + path, {
            method,
            headers,
            body: method === "GET" ? undefined : body,
            signal: controller.signal,
          });
          const text = await bodyOf(response, answerMs);
          controller.abort();
          answers++;
          const what = `#${i} ${method} ${JSON.stringify(headers)} ${body.slice(0, 200)} -> ${response.status}`;
          if (response.status >= 500) note(failures, `${what}: ${text?.slice(0, 200)}`);
          if (text !== undefined) checkJsonBody(response.headers.get("content-type") ?? "", text, failures, what);
          else if (!(response.headers.get("content-type") ?? "").includes("text/event-stream"))
            note(failures, `${what}: no complete answer within ${answerMs} ms`);
          if (text !== undefined && options.maxAnswerChars !== undefined && text.length > options.maxAnswerChars)
            note(failures, `${what}: a ${text.length}-character answer`);
        } catch (error) {
          if (!controller.signal.aborted)
            note(
              failures,
              `#${i}: request failed: ${error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error)}`,
            );
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const ping = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: '{"jsonrpc":"2.0","id":"fuzz-final-ping","method":"ping"}',
    }).then(
      (res) => res.text(),
      () => "",
    );
    const pingAnswered = /"id":"fuzz-final-ping"/.test(ping) && /"result"/.test(ping);
    for (const line of child.stdout) note(failures, `stdout in HTTP mode: ${line}`);
    if (child.exited())
      note(
        failures,
        `the server exited (code ${child.process.exitCode}, signal ${child.process.signalCode}): ${child.stderr.slice(-5).join(" | ")}`,
      );
    return { sent: count, answers, failures, pingAnswered: pingAnswered && !child.exited(), ms: Date.now() - started };
  } finally {
    await stopChild(child.process);
  }
}
