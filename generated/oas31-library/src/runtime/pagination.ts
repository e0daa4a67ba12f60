/**
 * Upstream pagination behind one contract: a tool's `cursor` argument and `nextCursor` result.
 * Cursors are opaque to the model and signed (HMAC-SHA256), so a model cannot forge one that
 * points the server at another host; URL cursors are also checked against the base URL's origin.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ToolDefinition } from "./types.js";

/** The signing key: `MCP_CURSOR_SECRET` when set (so instances behind a load balancer agree), else random per process. */
export function cursorKey(env: NodeJS.ProcessEnv): Buffer {
  const configured = env.MCP_CURSOR_SECRET;
  return configured ? Buffer.from(configured, "utf8") : randomBytes(32);
}

interface CursorPayload {
  /** Tool the cursor belongs to. */
  t: string;
  /** Next token, page number, offset or URL. */
  v: string | number;
}

function sign(body: string, key: Buffer): Buffer {
  return createHmac("sha256", key).update(body).digest();
}

/** Encodes and signs a cursor. */
export function encodeCursor(payload: CursorPayload, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${sign(body, key).toString("base64url")}`;
}

/** Verifies and decodes a cursor; undefined when it is malformed or its signature is wrong. */
export function decodeCursor(cursor: string, key: Buffer): CursorPayload | undefined {
  const [body, signature, extra] = cursor.split(".");
  if (!body || !signature || extra !== undefined) return undefined;
  const given = Buffer.from(signature, "base64url");
  const expected = sign(body, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CursorPayload;
    return typeof payload.t === "string" && (typeof payload.v === "string" || typeof payload.v === "number") ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** Arguments (and for URL styles, the exact URL) of the page a cursor asks for. */
export type CursorApplication = { ok: true; args: Record<string, unknown>; url?: string } | { ok: false; message: string };

/** Applies the `cursor` argument of a paginated tool to its arguments. */
export function applyCursor(tool: ToolDefinition, args: Record<string, unknown>, key: Buffer, baseUrl: string): CursorApplication {
  const pagination = tool.http.pagination;
  if (!pagination) return { ok: true, args };
  const cursor = args[pagination.cursorArgument];
  if (cursor === undefined) return { ok: true, args };
  const payload = typeof cursor === "string" ? decodeCursor(cursor, key) : undefined;
  const sameArgument = pagination.cursorArgument === pagination.targetArgument;
  if (!payload) {
    // The API's own token parameter may also be given a raw upstream token.
    if (sameArgument) return { ok: true, args };
    return { ok: false, message: `"${pagination.cursorArgument}" is not a cursor this server issued (cursors expire when the server restarts unless MCP_CURSOR_SECRET is set). Call without it to start from the first page.` };
  }
  if (payload.t !== tool.name) return { ok: false, message: `the cursor belongs to tool ${payload.t}, not ${tool.name}.` };
  const rest = { ...args };
  if (!sameArgument) delete rest[pagination.cursorArgument];
  if (pagination.style === "link" || pagination.style === "nextUrl") {
    const url = String(payload.v);
    if (!sameOrigin(url, baseUrl)) return { ok: false, message: "the cursor points to another origin than the API's base URL." };
    return { ok: true, args: rest, url };
  }
  return { ok: true, args: { ...rest, [pagination.targetArgument!]: payload.v } };
}

function sameOrigin(url: string, baseUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}

function at(value: unknown, path: string[] | undefined): unknown {
  let node = value;
  for (const key of path ?? []) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The `rel="next"` target of a Link header (RFC 8288), if any. */
export function nextLink(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/** What the cursor for the next page needs to know about the response. */
export interface PageFacts {
  /** The arguments the page was requested with (after the cursor was applied). */
  args: Record<string, unknown>;
  /** Parsed JSON body, when it was JSON. */
  body: unknown;
  /** The response's Link header. */
  link?: string | undefined;
  /** The URL that was requested, to resolve relative next links. */
  requestUrl: string;
  baseUrl: string;
}

/** The signed cursor of the next page, or undefined on the last page. */
export function nextCursor(tool: ToolDefinition, facts: PageFacts, key: Buffer): string | undefined {
  const pagination = tool.http.pagination;
  if (!pagination) return undefined;
  const make = (v: string | number) => encodeCursor({ t: tool.name, v }, key);
  const items = at(facts.body, pagination.itemsPath);
  const pageIsShort = (): boolean => {
    if (!Array.isArray(items) || items.length === 0) return true;
    const limit = pagination.limitArgument ? facts.args[pagination.limitArgument] : undefined;
    return typeof limit === "number" && items.length < limit;
  };
  switch (pagination.style) {
    case "cursor": {
      if (pagination.hasMorePath) {
        if (at(facts.body, pagination.hasMorePath) !== true || !Array.isArray(items) || items.length === 0) return undefined;
        const id = at(items[items.length - 1], [pagination.idField ?? "id"]);
        return typeof id === "string" || typeof id === "number" ? make(id) : undefined;
      }
      const token = at(facts.body, pagination.nextPath);
      return (typeof token === "string" && token !== "") || typeof token === "number" ? make(token) : undefined;
    }
    case "page": {
      if (pageIsShort()) return undefined;
      const current = Number(facts.args[pagination.targetArgument!] ?? pagination.firstPage ?? 1);
      return Number.isFinite(current) ? make(current + 1) : undefined;
    }
    case "offset": {
      if (pageIsShort()) return undefined;
      const current = Number(facts.args[pagination.targetArgument!] ?? 0);
      return Number.isFinite(current) ? make(current + (items as unknown[]).length) : undefined;
    }
    case "link":
    case "nextUrl": {
      const raw = pagination.style === "link" ? nextLink(facts.link) : at(facts.body, pagination.nextPath);
      if (typeof raw !== "string" || raw === "") return undefined;
      let url: string;
      try {
        url = new URL(raw, facts.requestUrl).toString();
      } catch {
        return undefined;
      }
      // A next URL on another host is never followed.
      return sameOrigin(url, facts.baseUrl) ? make(url) : undefined;
    }
  }
}
