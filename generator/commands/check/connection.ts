/**
 * Raw JSON-RPC connections to the server under check, over stdio (a child process: one message per
 * line) and Streamable HTTP (one POST per message; the answer is JSON or an SSE stream). The check
 * speaks the wire itself instead of using an MCP SDK client: it has to see what a client library
 * hides or repairs (exact error codes, HTTP statuses and headers, stray output on stdout, a response
 * to a cancelled request), it must speak both eras (SDK 1.x knows only `initialize`), and the product
 * keeps no SDK dependency, like the generated runtime.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

/** A JSON-RPC 2.0 message as it came over the wire. */
export interface RpcMessage {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** What came back for one request. */
export interface RpcReply {
  /** The response with the request's id; undefined when none came in time. */
  message?: RpcMessage;
  /** HTTP status (HTTP only). */
  status?: number;
  headers?: IncomingHttpHeaders;
  /** Other messages that came with it (notifications on an SSE stream). */
  notifications: RpcMessage[];
}

/** Options of one request. */
export interface RequestOptions {
  /** Give up waiting after this many milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Extra HTTP headers (HTTP only); `null` removes a header the connection would send. */
  headers?: Record<string, string | null>;
  /** Aborts the request (HTTP: closes the connection; stdio: stops waiting). */
  signal?: AbortSignal;
}

/** A connection the checks talk through. */
export interface Connection {
  readonly transport: "stdio" | "http";
  /** Sends a request with a fresh id and waits for its response. */
  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<RpcReply>;
  /** Sends a request with this id (so it can be cancelled) and waits for its response. */
  requestWithId(
    id: number | string,
    method: string,
    params: Record<string, unknown> | undefined,
    options?: RequestOptions,
  ): Promise<RpcReply>;
  /** Sends a notification. HTTP: resolves with the status of the POST. */
  notify(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<{ status?: number }>;
  /** Stops the connection (and the process it started, by its PID). */
  close(): Promise<void>;
}

/** The modern era's request `_meta` keys. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** The modern revision the check speaks, and the legacy one. */
export const MODERN_VERSION = "2026-07-28";
export const LEGACY_VERSION = "2025-11-25";

/** `params` with the modern era's per-request `_meta`. */
export function modernParams(params: Record<string, unknown> = {}, version = MODERN_VERSION): Record<string, unknown> {
  return {
    ...params,
    _meta: {
      [META.protocolVersion]: version,
      [META.clientCapabilities]: {},
      [META.clientInfo]: { name: "mcp-gen-check", version: "1" },
    },
  };
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Output lines kept from the server's stderr and stray stdout (the report quotes them). */
const KEPT_LINES = 200;

/** stdio: one JSON-RPC message per line on the child's stdin and stdout. */
export class StdioConnection implements Connection {
  readonly transport = "stdio" as const;
  /** stderr lines, and stdout lines that were not JSON-RPC messages (stdout must carry only messages). */
  readonly stderr: string[] = [];
  readonly strayStdout: string[] = [];
  /** Requests the server sent us (answered with an error: the check offers no client capabilities). */
  readonly serverRequests: RpcMessage[] = [];
  private readonly waiting = new Map<string, (message: RpcMessage) => void>();
  private readonly notifications: RpcMessage[] = [];
  private nextId = 1;
  private exited = false;

  private constructor(private readonly child: ChildProcess) {
    let buffer = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end).replace(/\r$/, "");
        buffer = buffer.slice(end + 1);
        if (line.trim() !== "") this.receive(line);
      }
    });
    let errors = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      errors += chunk;
      const lines = errors.split("\n");
      errors = lines.pop() ?? "";
      for (const line of lines) if (this.stderr.length < KEPT_LINES) this.stderr.push(line);
    });
    child.once("exit", () => (this.exited = true));
    child.stdin!.on("error", () => undefined); // a server that exits early closes the pipe
  }

  /** Starts `command args` and connects to its stdio. */
  static start(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): StdioConnection {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    const connection = new StdioConnection(child);
    child.once("error", (error) => connection.stderr.push(`could not start ${command}: ${error.message}`));
    return connection;
  }

  /** True once the server process has exited. */
  get hasExited(): boolean {
    return this.exited;
  }

  private receive(line: string): void {
    let message: RpcMessage;
    try {
      message = JSON.parse(line) as RpcMessage;
    } catch {
      if (this.strayStdout.length < KEPT_LINES) this.strayStdout.push(line);
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      if (this.strayStdout.length < KEPT_LINES) this.strayStdout.push(line);
      return;
    }
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      // A request from the server (sampling, elicitation…): the check declared no capability for it.
      this.serverRequests.push(message);
      this.send({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: "the compliance check offers no client capabilities" },
      });
      return;
    }
    if (
      message.id !== undefined &&
      message.id !== null &&
      (message.result !== undefined || message.error !== undefined)
    ) {
      const key = String(message.id);
      const waiter = this.waiting.get(key);
      if (waiter) {
        this.waiting.delete(key);
        waiter(message);
        return;
      }
    }
    if (this.notifications.length < KEPT_LINES) this.notifications.push(message);
  }

  private send(message: Record<string, unknown>): void {
    if (!this.exited) this.child.stdin!.write(JSON.stringify(message) + "\n");
  }

  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<RpcReply> {
    return this.requestWithId(`check-${this.nextId++}`, method, params, options);
  }

  requestWithId(
    id: number | string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions = {},
  ): Promise<RpcReply> {
    const key = String(id);
    return new Promise((done) => {
      const finish = (message?: RpcMessage): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        this.waiting.delete(key);
        done({ ...(message ? { message } : {}), notifications: this.notifications.splice(0) });
      };
      const onAbort = (): void => finish();
      const timer = setTimeout(() => finish(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(key, (message) => finish(message));
      this.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    });
  }

  /** Waits up to `ms` for a response to `id` sent earlier (a late answer to a cancelled request). */
  waitForLate(id: number | string, ms: number): Promise<RpcMessage | undefined> {
    const key = String(id);
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        done(undefined);
      }, ms);
      this.waiting.set(key, (message) => {
        clearTimeout(timer);
        done(message);
      });
    });
  }

  /** Stops listening for `id` (a request whose answer no longer matters). */
  forget(id: number | string): void {
    this.waiting.delete(String(id));
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<{ status?: number }> {
    this.send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
    return {};
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((done) => this.child.once("exit", () => done()));
    this.child.stdin!.end(); // servers SHOULD exit on stdin EOF
    const wait = (ms: number) =>
      Promise.race([
        exited.then(() => true),
        new Promise<boolean>((done) => setTimeout(() => done(false), ms).unref()),
      ]);
    if (await wait(2_000)) return;
    this.signal("SIGTERM");
    if (await wait(3_000)) return;
    this.signal("SIGKILL");
    await wait(2_000);
  }

  /** Sends a signal to exactly the started process (by its PID), if it is still there. */
  private signal(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined || this.exited) return;
    try {
      process.kill(this.child.pid, signal);
    } catch {
      // it exited meanwhile
    }
  }
}

/** One HTTP exchange, raw: status, headers and body text. */
export interface HttpExchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** POSTs `body` to `url` with `headers`; resolves with the whole answer (bounded in size and time). */
export function postRaw(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<HttpExchange> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    const req = send(
      url,
      {
        method: "POST",
        headers: { "content-length": String(Buffer.byteLength(body)), ...headers },
        signal: options.signal,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < 64 * 1024 * 1024) text += chunk;
        });
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on("error", fail);
      },
    );
    req.setTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer from ${url.href} within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)),
    );
    req.on("error", fail);
    req.end(body);
  });
}

/** The JSON-RPC messages of an HTTP answer: one JSON body, or the `data:` of each SSE event. */
export function messagesOf(exchange: HttpExchange): RpcMessage[] {
  const type = String(exchange.headers["content-type"] ?? "");
  const parse = (text: string): RpcMessage[] => {
    try {
      const value = JSON.parse(text) as unknown;
      return (Array.isArray(value) ? value : [value]).filter(
        (m): m is RpcMessage => typeof m === "object" && m !== null,
      );
    } catch {
      return [];
    }
  };
  if (type.includes("text/event-stream")) {
    return exchange.body
      .split(/\r?\n\r?\n/)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).replace(/^ /, ""))
          .join("\n"),
      )
      .filter((data) => data.trim() !== "")
      .flatMap(parse);
  }
  return exchange.body.trim() === "" ? [] : parse(exchange.body);
}

/**
 * Streamable HTTP: one POST per message. Legacy requests carry the negotiated `MCP-Protocol-Version`
 * (and the session id when the server issued one); modern requests (with `_meta`) carry the SEP-2243
 * headers (`Mcp-Method`, and `Mcp-Name` for tools/call, resources/read and prompts/get).
 */
export class HttpConnection implements Connection {
  readonly transport = "http" as const;
  /** The version `initialize` negotiated (sent as `MCP-Protocol-Version` on legacy requests). */
  negotiated: string | undefined;
  sessionId: string | undefined;
  private nextId = 1;

  constructor(readonly url: URL) {}

  /** The headers a well-behaved client sends with `message`. */
  headersFor(message: { method?: string; params?: Record<string, unknown> }): Record<string, string> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    const modern =
      typeof meta?.[META.protocolVersion] === "string" ? (meta[META.protocolVersion] as string) : undefined;
    if (modern) {
      headers["mcp-protocol-version"] = modern;
      if (message.method) headers["mcp-method"] = message.method;
      const name =
        message.method === "tools/call" || message.method === "prompts/get"
          ? message.params?.name
          : message.method === "resources/read"
            ? message.params?.uri
            : undefined;
      if (typeof name === "string") headers["mcp-name"] = headerValue(name);
    } else if (this.negotiated && message.method !== "initialize") headers["mcp-protocol-version"] = this.negotiated;
    if (this.sessionId && !modern) headers["mcp-session-id"] = this.sessionId;
    return headers;
  }

  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<RpcReply> {
    return this.requestWithId(`check-${this.nextId++}`, method, params, options);
  }

  async requestWithId(
    id: number | string,
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions = {},
  ): Promise<RpcReply> {
    const message = { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) };
    const headers = applyHeaders(this.headersFor(message), options.headers);
    let exchange: HttpExchange;
    try {
      exchange = await postRaw(this.url, JSON.stringify(message), headers, {
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch {
      return { notifications: [] };
    }
    const session = exchange.headers["mcp-session-id"];
    if (method === "initialize" && typeof session === "string") this.sessionId = session;
    const messages = messagesOf(exchange);
    const reply =
      messages.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined)) ??
      messages.find((m) => m.id === null && m.error !== undefined);
    return {
      ...(reply ? { message: reply } : {}),
      status: exchange.status,
      headers: exchange.headers,
      notifications: messages.filter((m) => m !== reply),
    };
  }

  async notify(
    method: string,
    params?: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<{ status?: number }> {
    const message = { jsonrpc: "2.0", method, ...(params ? { params } : {}) };
    try {
      const exchange = await postRaw(
        this.url,
        JSON.stringify(message),
        applyHeaders(this.headersFor(message), options.headers),
        { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
      );
      return { status: exchange.status };
    } catch {
      return {};
    }
  }

  async close(): Promise<void> {
    // Stateless by default; a legacy session is ended with DELETE when the server issued one.
    if (!this.sessionId) return;
    const send = this.url.protocol === "https:" ? httpsRequest : httpRequest;
    await new Promise<void>((done) => {
      const req = send(this.url, { method: "DELETE", headers: { "mcp-session-id": this.sessionId! } }, (res) => {
        res.resume();
        res.on("end", () => done());
      });
      req.setTimeout(5_000, () => req.destroy());
      req.on("error", () => done());
      req.end();
    });
  }
}

/** A header value as SEP-2243 sends it: as is when plain ASCII, else `=?base64?…?=`. */
function headerValue(value: string): string {
  return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value)
    ? value
    : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

function applyHeaders(
  headers: Record<string, string>,
  changes: Record<string, string | null> | undefined,
): Record<string, string> {
  const out = { ...headers };
  for (const [name, value] of Object.entries(changes ?? {})) {
    const key = name.toLowerCase();
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}
