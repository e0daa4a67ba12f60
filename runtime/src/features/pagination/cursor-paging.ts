/**
 * Upstream pagination behind one contract: a tool's `cursor` argument and `nextCursor` result.
 * Cursors are opaque to the model: encrypted and authenticated (AES-256-GCM), so a model can
 * neither read one (a next URL may carry more than it should) nor forge one that points the
 * server at another host; URL cursors are also checked against the base URL's origin. Query
 * credentials and URL userinfo are taken out of next URLs before they are stored, and the request
 * that follows the cursor adds the current credentials again, once.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { CallToolResult } from "../../api/mcp-types.js";
import type { ToolDefinition } from "../../api/types.js";
import type { CursorApplication, PageFacts } from "../../upstream/paging-slot.js";

/** The cursor key: `MCP_CURSOR_SECRET` when set (so instances behind a load balancer agree), else random per process. */
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

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Longest cursor accepted (characters): room for a next URL of about 12,000 characters. */
export const MAX_CURSOR_CHARS = 16_384;

/** The AES-256 key for a cursor key of any length (a configured secret may be short or long). */
function aesKey(key: Buffer): Buffer {
  return createHash("sha256").update("mcp-gen cursor v2\0").update(key).digest();
}

/** Encrypts a cursor: base64url of IV, GCM tag and ciphertext. */
export function encodeCursor(payload: CursorPayload, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", aesKey(key), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** Decrypts and checks a cursor; undefined when it is malformed, altered or made with another key. */
export function decodeCursor(cursor: string, key: Buffer): CursorPayload | undefined {
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const raw = Buffer.from(cursor, "base64url");
  if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", aesKey(key), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
    const payload = JSON.parse(text) as CursorPayload;
    return typeof payload.t === "string" && (typeof payload.v === "string" || typeof payload.v === "number")
      ? payload
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A next URL fit to store: without userinfo and without query parameters that carry a
 * credential, by name or by value. `credentialQuery` holds the encoded `name=value` pairs the
 * request was authenticated with.
 */
export function withoutCredentials(url: string, credentialQuery: readonly string[]): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  if (credentialQuery.length === 0 || parsed.search === "") return parsed.toString();
  const names = new Set<string>();
  const values = new Set<string>();
  for (const pair of credentialQuery) {
    const at = pair.indexOf("=");
    names.add(decodeURIComponent(at < 0 ? pair : pair.slice(0, at)));
    const value = at < 0 ? "" : decodeURIComponent(pair.slice(at + 1));
    if (value !== "") values.add(value);
  }
  // Only the pairs to drop are touched, so the rest of the query keeps its exact encoding.
  const kept = parsed.search
    .slice(1)
    .split("&")
    .filter((pair) => {
      const at = pair.indexOf("=");
      const name = safeDecode(at < 0 ? pair : pair.slice(0, at));
      const value = at < 0 ? "" : safeDecode(pair.slice(at + 1));
      return !names.has(name) && !values.has(value);
    });
  parsed.search = kept.length > 0 ? `?${kept.join("&")}` : "";
  return parsed.toString();
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** The stored next URL with the base URL's userinfo put back, ready to request. */
function withBaseUserinfo(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  if (base.username === "" && base.password === "") return url;
  const parsed = new URL(url);
  parsed.username = base.username;
  parsed.password = base.password;
  return parsed.toString();
}

/** Applies the `cursor` argument of a paginated tool to its arguments. */
export function applyCursor(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  key: Buffer,
  baseUrl: string,
): CursorApplication {
  const pagination = tool.http.pagination;
  if (!pagination) return { ok: true, args };
  const cursor = args[pagination.cursorArgument];
  if (cursor === undefined) return { ok: true, args };
  const payload = typeof cursor === "string" ? decodeCursor(cursor, key) : undefined;
  const sameArgument = pagination.cursorArgument === pagination.targetArgument;
  if (!payload) {
    // The API's own token parameter may also be given a raw upstream token.
    if (sameArgument) return { ok: true, args };
    return {
      ok: false,
      message: `"${pagination.cursorArgument}" is not a cursor this server issued (cursors expire when the server restarts unless MCP_CURSOR_SECRET is set). Call without it to start from the first page.`,
    };
  }
  if (payload.t !== tool.name)
    return { ok: false, message: `the cursor belongs to tool ${payload.t}, not ${tool.name}.` };
  const rest = { ...args };
  if (!sameArgument) delete rest[pagination.cursorArgument];
  if (pagination.style === "link" || pagination.style === "nextUrl") {
    const url = String(payload.v);
    if (!sameOrigin(url, baseUrl))
      return { ok: false, message: "the cursor points to another origin than the API's base URL." };
    return { ok: true, args: rest, url: withBaseUserinfo(url, baseUrl) };
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
        if (at(facts.body, pagination.hasMorePath) !== true || !Array.isArray(items) || items.length === 0)
          return undefined;
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
      return sameOrigin(url, facts.baseUrl) ? make(withoutCredentials(url, facts.credentialQuery ?? [])) : undefined;
    }
  }
}

/** Puts `nextCursor` in the structured result and says how to use it in the text. */
export function addNextCursor(result: CallToolResult, next: string, argument: string): void {
  if (
    result.structuredContent &&
    typeof result.structuredContent === "object" &&
    !Array.isArray(result.structuredContent)
  ) {
    (result.structuredContent as Record<string, unknown>).nextCursor = next;
  }
  result.content.push({ type: "text", text: `More results: call again with ${argument} = ${next}` });
}
