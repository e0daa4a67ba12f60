/** Shared test fixture: a recording upstream HTTP server on 127.0.0.1 and sample tools. No tests here. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallToolResult } from "../../runtime/src/api/mcp-types.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import { mapResponse } from "../../runtime/src/upstream/result.js";

/** One request the fake upstream received. */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Resolves when the connection for this request closes (answered or aborted by the client). */
  closed: Promise<void>;
}

/** What a route answers (after `delayMs` when given); "hang" never answers (for cancellation tests). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | "hang";

/** A running fake upstream. */
export interface Upstream {
  baseUrl: string;
  received: Recorded[];
  /** Resolves when a request whose URL contains `fragment` arrives. */
  arrival(fragment: string): Promise<Recorded>;
  close(): Promise<void>;
}

/**
 * Waits for `event` (a promise standing for something the test expects to happen), failing with
 * `what` after `ms` instead of hanging the run when it never happens.
 */
export async function within<T>(event: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms)),
  );
  try {
    return await Promise.race([event, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** An upstream that answers every request 200 with the JSON `body` (default `{}`). */
export function startJsonUpstream(body = "{}"): Promise<Upstream> {
  return startUpstream(() => ({ status: 200, headers: { "content-type": "application/json" }, body }));
}

export async function startUpstream(route: (r: Recorded) => Reply): Promise<Upstream> {
  const received: Recorded[] = [];
  const waiters: Array<{ fragment: string; resolve: (r: Recorded) => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const closed = new Promise<void>((resolve) => res.on("close", () => resolve()));
      const rec: Recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        closed,
      };
      received.push(rec);
      for (const w of waiters.filter((w) => rec.url.includes(w.fragment))) w.resolve(rec);
      const reply = route(rec);
      if (reply === "hang") return;
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? "");
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    received,
    arrival: (fragment) => new Promise((resolve) => waiters.push({ fragment, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const info: ServerInfo = { name: "petstore-mcp", version: "1.2.3", title: "Petstore", description: "Pets API." };

const noParams = { type: "object" as const, additionalProperties: false };

export function sampleTools(): ToolDefinition[] {
  return [
    {
      name: "getPet",
      description: "Get a pet",
      inputSchema: {
        type: "object",
        properties: { petId: { type: "integer" }, verbose: { type: "boolean" } },
        required: ["petId"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { id: { type: "integer" }, name: { type: "string" } },
        required: ["id"],
      },
      annotations: { readOnlyHint: true },
      http: {
        method: "get",
        path: "/pets/{petId}",
        parameters: [
          { argument: "petId", name: "petId", in: "path", style: "simple", explode: false, required: true },
          { argument: "verbose", name: "verbose", in: "query", style: "form", explode: true, required: false },
        ],
        response: { accept: ["application/json"] },
      },
    },
    {
      name: "listPets",
      title: "List pets",
      description: "List pets",
      inputSchema: {
        type: "object",
        properties: {
          limit: { type: "integer", maximum: 100 },
          tags: { type: "array", items: { type: "string" } },
          apiKey: { type: "string" },
        },
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { items: { type: "array" } }, required: ["items"] },
      http: {
        method: "get",
        path: "/pets",
        parameters: [
          { argument: "limit", name: "limit", in: "query", style: "form", explode: true, required: false },
          { argument: "tags", name: "tags", in: "query", style: "form", explode: false, required: false },
          { argument: "apiKey", name: "api_key", in: "query", style: "form", explode: true, required: false },
        ],
        response: { accept: ["application/json"], wrapKey: "items" },
      },
    },
    {
      name: "createPet",
      description: "Create a pet",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1 },
          tag: { type: "string" },
          requestId: { type: "string", format: "uuid" },
        },
        required: ["name"],
        additionalProperties: false,
      },
      http: {
        method: "post",
        path: "/pets",
        parameters: [
          {
            argument: "requestId",
            name: "X-Request-Id",
            in: "header",
            style: "simple",
            explode: false,
            required: false,
          },
        ],
        body: {
          kind: "properties",
          properties: { name: "name", tag: "tag" },
          mediaType: "application/json",
          required: true,
        },
        response: { accept: ["application/json"] },
      },
    },
    {
      name: "slow",
      description: "Never answers",
      inputSchema: noParams,
      http: { method: "get", path: "/slow", parameters: [], response: { accept: [] } },
    },
    {
      name: "deletePet",
      description: "Delete",
      inputSchema: noParams,
      http: { method: "delete", path: "/pets/1", parameters: [], response: { accept: [] } },
    },
  ];
}

/** `body` as the API's 200 JSON answer to a GET of `tool`, mapped to its tool result (upstream/result.ts). */
export function jsonAnswer(tool: ToolDefinition, body: unknown, validator = new SchemaValidator()): CallToolResult {
  const response = { status: 200, contentType: "application/json", body: Buffer.from(JSON.stringify(body)) };
  return mapResponse(tool, { ...response, method: "GET", path: tool.http.path }, validator);
}
