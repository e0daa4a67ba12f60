/**
 * A file given as `{"url": "https://…"}`: fetched by the server with the hostile-input rules. Only
 * http(s); public addresses only (address-guard.ts), also after each redirect; at most
 * `maxBytes` (the declared length is checked first, then the bytes as they come); one deadline for
 * the whole fetch, redirects included. node:http rather than got: each connection needs its own
 * checked DNS lookup and no pooled socket (`agent: false`), and the body a byte cap as it streams.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { basename } from "node:path";
import { ArgumentError } from "../../upstream/serialize.js";
import { FileContent } from "../encodings/files.js";
import { guardedLookup, isPublicAddress, PrivateAddressError } from "./address-guard.js";

/** Limits of a URL upload. */
export interface UrlLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Reach private and loopback addresses too (dangerous: the server's own network). */
  allowPrivate: boolean;
}

/** Redirects followed at most. */
const MAX_REDIRECTS = 5;

/** Fetches the file at `text`; ArgumentError (naming only the URL's host) when refused or failed. */
export async function fetchUpload(text: string, limits: UrlLimits, signal?: AbortSignal): Promise<FileContent> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const abort = signal ? AbortSignal.any([signal, deadline]) : deadline;
  let url = checkedUrl(text, limits);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await send(url, limits, abort, deadline);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      url = checkedUrl(new URL(location, url).href, limits);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new ArgumentError(`the file at ${url.host} could not be fetched: HTTP ${status}`);
    }
    const data = await readCapped(response, url, limits, deadline);
    return new FileContent(data, mediaTypeOf(response), fileNameOf(url));
  }
  throw new ArgumentError(`the file at ${url.host} redirects more than ${MAX_REDIRECTS} times`);
}

/** The response's media type when it is a plain `type/subtype` (it may become a multipart part's header). */
function mediaTypeOf(response: IncomingMessage): string | undefined {
  const essence = response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
  return essence && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence) ? essence : undefined;
}

/** The URL's last path segment, decoded (as it was when it does not decode), if any. */
function fileNameOf(url: URL): string | undefined {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: the segment as it was written.
  }
  const name = basename(path);
  return name === "" || name === "/" ? undefined : name;
}

/** An http(s) URL whose host, when an IP literal, is public (names are checked at lookup). */
function checkedUrl(text: string, limits: UrlLimits): URL {
  if (!URL.canParse(text)) throw new ArgumentError("a file URL must be an absolute http(s) URL");
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ArgumentError(`a file URL must be http or https, not ${url.protocol.replace(/:$/, "")}`);
  if (url.username || url.password) throw new ArgumentError("a file URL must not carry credentials");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!limits.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) throw privateAddress(url);
  return url;
}

function privateAddress(url: URL): ArgumentError {
  return new ArgumentError(
    `refused to fetch the file at ${url.host}: it is a private, loopback or link-local address (uploads by URL reach public addresses only)`,
  );
}

/** Sends the GET; resolves with the response head. */
async function send(url: URL, limits: UrlLimits, abort: AbortSignal, deadline: AbortSignal): Promise<IncomingMessage> {
  const { request } = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "GET",
      agent: false,
      lookup: guardedLookup(limits.allowPrivate),
      signal: abort,
      headers: { accept: "*/*" },
    });
    req.on("response", resolve);
    req.on("error", (error) => reject(fetchError(error, url, limits.timeoutMs, deadline)));
    req.end();
  });
}

/** The body, at most `maxBytes`. */
async function readCapped(
  response: IncomingMessage,
  url: URL,
  { maxBytes, timeoutMs }: UrlLimits,
  deadline: AbortSignal,
): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(url, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        response.destroy();
        throw tooLarge(url, maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ArgumentError) throw error;
    throw fetchError(error, url, timeoutMs, deadline);
  }
  return Buffer.concat(chunks);
}

function tooLarge(url: URL, maxBytes: number): ArgumentError {
  return new ArgumentError(`the file at ${url.host} is larger than the upload limit of ${maxBytes} bytes`);
}

/** A network failure as an ArgumentError that names the host and the kind of failure, nothing else. */
function fetchError(error: unknown, url: URL, timeoutMs: number, deadline: AbortSignal): ArgumentError {
  if (error instanceof PrivateAddressError) return privateAddress(url);
  if (deadline.aborted)
    return new ArgumentError(`the file at ${url.host} was not fetched within the upload timeout of ${timeoutMs} ms`);
  const code = (error as { code?: unknown }).code;
  return new ArgumentError(
    `the file at ${url.host} could not be fetched${typeof code === "string" ? ` (${code})` : ""}`,
  );
}
