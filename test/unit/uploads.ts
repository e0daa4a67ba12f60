/**
 * Feature `uploads`: file arguments given by reference. The guards with the default settings (no
 * private address, by IP literal or by a name, IPv4 and IPv6; size cap; timeout; http(s) only; paths
 * only inside the allowed folder, symlinks resolved, never over HTTP), and uploads by URL and by path
 * through a server in process reaching a local upstream byte-identical, multipart and octet-stream.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";
import {
  guardedLookup,
  isPublicAddress,
  PrivateAddressError,
} from "../../runtime/src/features/uploads/address-guard.js";
import { uploads, uploadSettings } from "../../runtime/src/features/uploads/index.js";
import { readAllowedFile } from "../../runtime/src/features/uploads/path-upload.js";
import { fetchUpload, type UrlLimits } from "../../runtime/src/features/uploads/url-upload.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { ResolveUploads } from "../../runtime/src/upstream/body.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";
import { sha256, startFiles, startUploadUpstream, type Files } from "../support/upload-fixture.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/uploads.yaml", import.meta.url));
const DEFAULTS: UrlLimits = { maxBytes: 1_000_000, timeoutMs: 5_000, allowPrivate: false };
const LOCAL: UrlLimits = { ...DEFAULTS, allowPrivate: true };
const FILE = randomBytes(70_000);

let files: Files;
let folder: string;
let outside: string;
let tools: ToolDefinition[];

test.before(async () => {
  files = await startFiles(FILE);
  const base = mkdtempSync(join(tmpdir(), "mcp-gen-uploads-"));
  folder = join(base, "allowed");
  outside = join(base, "secret.txt");
  mkdirSync(join(folder, "sub"), { recursive: true });
  writeFileSync(join(folder, "sub", "photo.png"), FILE);
  writeFileSync(join(folder, "big.bin"), Buffer.alloc(2_000));
  writeFileSync(outside, "TOP-SECRET");
  symlinkSync(outside, join(folder, "escape.txt"));
  symlinkSync(join(folder, "sub", "photo.png"), join(folder, "inside-link.png"));
  const { plan } = await generate({ spec, planOnly: true });
  tools = plan.tools.map(toolDefinition);
});

test.after(async () => {
  await files.close();
  rmSync(join(folder, ".."), { recursive: true, force: true });
});

test("public addresses only: loopback, private, link-local, unique-local, mapped and reserved ranges are not", () => {
  for (const address of [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "[::1]",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "fd00::1",
    "fe80::1",
    "64:ff9b::a00:1",
    "not an address",
  ])
    assert.not.ok(isPublicAddress(address), address);
  for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
    assert.ok(isPublicAddress(address), address);
});

test("the lookup refuses a name with any address that is not public, in both of node's lookup forms", async () => {
  const ask = (allowPrivate: boolean, all: boolean) =>
    new Promise<unknown>((resolve) =>
      guardedLookup(allowPrivate)("localhost", { all }, (error, address) => resolve(error ?? address)),
    );
  assert.instance(await ask(false, true), PrivateAddressError);
  assert.instance(await ask(false, false), PrivateAddressError);
  assert.match(String(await ask(true, false)), /^(127\.0\.0\.1|::1)$/);
  assert.ok(Array.isArray(await ask(true, true)));
});

test("by default a URL to a private address is refused before anything is sent, by IP literal or by name", async () => {
  const port = new URL(files.url("/")).port;
  for (const url of [
    files.url("/file.bin?token=SECRET"),
    `http://10.0.0.1:${port}/file.bin`,
    "http://169.254.169.254/latest/meta-data/",
    `http://[::1]:${port}/file.bin`,
    `http://[::ffff:127.0.0.1]:${port}/file.bin`,
    `http://localhost:${port}/file.bin`,
    `http://2130706433:${port}/file.bin`,
  ]) {
    const error = await fetchUpload(url, DEFAULTS).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(error, url);
    assert.match(error.message, /private, loopback or link-local address/, url);
    assert.not.match(error.message, /SECRET|file\.bin|meta-data/, "the message names the host only");
  }
  assert.equal(files.hits, [], "no request reached the file server");
});

test("only http(s), no credentials in the URL, a redirect is checked as the first URL", async () => {
  for (const [url, message] of [
    ["file:///etc/passwd", /http or https, not file/],
    ["ftp://example.com/x", /http or https/],
    ["not a url", /absolute http\(s\) URL/],
    ["http://user:pw@example.com/x", /must not carry credentials/],
    [files.url(`/to?u=${encodeURIComponent("file:///etc/passwd")}`), /http or https, not file/],
  ] as const)
    await fetchUpload(url, LOCAL).then(
      () => assert.unreachable(url),
      (e: Error) => assert.match(e.message, message, url),
    );
  await fetchUpload(files.url("/loop"), LOCAL).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /redirects more than 5 times/),
  );
  const redirected = await fetchUpload(files.url(`/to?u=${encodeURIComponent("/file.bin")}`), LOCAL);
  assert.is(sha256(redirected.data), sha256(FILE));
});

test("size cap (declared length and streamed bytes), timeout, cancellation, and HTTP errors", async () => {
  const small = { ...LOCAL, maxBytes: 1_000 };
  for (const path of ["/big", "/big-chunked"])
    await fetchUpload(files.url(path), small).then(
      () => assert.unreachable(path),
      (e: Error) => assert.match(e.message, /larger than the upload limit of 1000 bytes/),
    );
  await fetchUpload(files.url("/hang"), { ...LOCAL, timeoutMs: 150 }).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /not fetched within the upload timeout of 150 ms/),
  );
  const cancel = new AbortController();
  const started = Date.now();
  setTimeout(() => cancel.abort(), 50);
  await fetchUpload(files.url("/hang"), LOCAL, cancel.signal).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /could not be fetched/),
  );
  assert.ok(Date.now() - started < 2_000, "cancelling the call cancels the fetch");
  await fetchUpload(files.url("/missing"), LOCAL).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /HTTP 404/),
  );
  for (const [path, type, name] of [
    ["/odd%zz?type=Text/Plain;%20charset=utf-8", "text/plain", "odd%zz"],
    ["/odd%20name.txt?type=text/plain%22%3B%20x", undefined, "odd name.txt"],
    ["/odd/?type=", undefined, "odd"],
  ] as const) {
    const odd = await fetchUpload(files.url(path), LOCAL);
    assert.equal([odd.mediaType, odd.fileName], [type, name], path);
  }
  const read = await fetchUpload(files.url("/file.bin"), LOCAL);
  assert.equal([sha256(read.data), read.mediaType, read.fileName], [sha256(FILE), "image/png", "file.bin"]);
});

test("a path is read only inside the allowed folder, symlinks resolved; what is outside is not told", async () => {
  const read = await readAllowedFile("sub/photo.png", folder, 1_000_000);
  assert.equal([sha256(read.data), read.fileName], [sha256(FILE), "photo.png"]);
  const linked = await readAllowedFile(join(folder, "inside-link.png"), folder, 1_000_000);
  assert.equal([sha256(linked.data), linked.fileName], [sha256(FILE), "inside-link.png"]);
  for (const path of ["../secret.txt", "sub/../../secret.txt", outside, "escape.txt", "/etc/passwd", ".", ""]) {
    const error = await readAllowedFile(path, folder, 1_000_000).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(error, path);
    assert.match(error.message, /outside the folder the server allows uploads from/, path);
    assert.not.match(error.message, /TOP-SECRET|secret\.txt/);
  }
  await readAllowedFile("sub", folder, 1_000_000).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /is not a file/),
  );
  await readAllowedFile("big.bin", folder, 1_000).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /larger than the upload limit of 1000 bytes/),
  );
  await readAllowedFile("nope.bin", folder, 1_000).then(
    () => assert.unreachable(),
    (e: Error) => assert.match(e.message, /no file "nope.bin"/),
  );
});

test("settings: defaults, flags over environment, --upload-dir never over HTTP and only a folder", () => {
  const defaults = uploadSettings({ flags: {}, env: {}, http: false });
  assert.equal(
    [defaults.maxBytes, defaults.timeoutMs, defaults.allowPrivate, defaults.root],
    [26_214_400, 30_000, false, undefined],
  );
  assert.match(defaults.pathsOff, /--upload-dir/);
  assert.match(uploadSettings({ flags: {}, env: {}, http: true }).pathsOff, /never read over HTTP/);
  const set = uploadSettings({
    flags: { "upload-max-bytes": "10", "upload-dir": folder },
    env: { MCP_UPLOAD_MAX_BYTES: "20", MCP_UPLOAD_TIMEOUT_MS: "900", MCP_UPLOAD_ALLOW_PRIVATE: "1" },
    http: false,
  });
  assert.equal([set.maxBytes, set.timeoutMs, set.allowPrivate, set.root], [10, 900, true, folder]);
  assert.throws(() => uploadSettings({ flags: { "upload-dir": folder }, env: {}, http: true }), /stdio only/);
  assert.throws(() => uploadSettings({ flags: {}, env: { MCP_UPLOAD_DIR: folder }, http: true }), /stdio only/);
  assert.throws(
    () => uploadSettings({ flags: { "upload-dir": join(folder, "big.bin") }, env: {}, http: false }),
    /not a folder/,
  );
  assert.throws(
    () => uploadSettings({ flags: { "upload-dir": join(folder, "none") }, env: {}, http: false }),
    /no such folder/,
  );
  assert.throws(() => uploadSettings({ flags: { "upload-timeout": "0" }, env: {}, http: false }), /--upload-timeout/);
});

test("--upload-allow-private is said at start, as a warning", async () => {
  const warned: string[] = [];
  const logger = { ...silentLogger, warn: (message: string) => void warned.push(message) };
  const info = { name: "u", version: "1" };
  await uploads.plugs({ flags: {}, env: {}, http: false, info, logger });
  assert.equal(warned, []);
  await uploads.plugs({ flags: { "upload-allow-private": true }, env: {}, http: false, info, logger });
  assert.match(warned.join("\n"), /--upload-allow-private: .*loopback, private and link-local/);
});

/** A server in process over `upstream` whose uploads are feature uploads' plugs for `flags` (stdio unless `http`). */
async function server(baseUrl: string, flags: Record<string, string | boolean>, http = false) {
  const plugs = await uploads.plugs({ flags, env: {}, http, info: { name: "u", version: "1" }, logger: silentLogger });
  const mcp = new McpServer({
    info: { name: "uploads", version: "1.0.0" },
    tools,
    upstream: { baseUrl, encodings: requestEncodings(), uploads: plugs.uploads as ResolveUploads },
  });
  return async (name: string, args: Record<string, unknown>) => {
    const answer = (await mcp.dispatch(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
      { scope: "stdio" },
    )) as unknown as { result: { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: unknown } };
    return answer.result;
  };
}

test("a project with file arguments vendors feature uploads and its README tells it; petstore has none of it", async () => {
  const { files: emitted } = await generate({ spec });
  const text = (path: string) => String(emitted.find((file) => file.path === path)?.content);
  assert.match(text("src/index.ts"), /features\/uploads\/index\.js/);
  assert.ok(emitted.some((file) => file.path === "src/runtime/features/uploads/url-upload.ts"));
  assert.match(text("README.md"), /### Files by reference[^]*--upload-dir <dir>/);
  assert.match(text("README.md"), /public\s+addresses only unless `--upload-allow-private`, dangerous/);
  const petstore = new URL("../../../generated/petstore/", import.meta.url);
  assert.not.match(readFileSync(new URL("src/index.ts", petstore), "utf8"), /uploads/);
  assert.not.match(readFileSync(new URL("README.md", petstore), "utf8"), /Files by reference/);
});

test("the input schema offers {url} and {path} beside base64, in few words", () => {
  const photo = tools.find((tool) => tool.name === "uploadPhoto")!.inputSchema.properties!.photo as Record<
    string,
    unknown
  >;
  assert.equal((photo.anyOf as unknown[]).length, 2);
  assert.match(String(photo.description), /\{"url": "https:\/\/…"\} the server fetches, or \{"path": "…"\}/);
  assert.ok(JSON.stringify(photo).length < 500, JSON.stringify(photo));
});

test("by URL and by allowed path, multipart and octet-stream: the upstream receives the same bytes", async () => {
  const upstream = await startUploadUpstream();
  try {
    const call = await server(upstream.baseUrl, { "upload-dir": folder, "upload-allow-private": true });
    const expected = { sha256: sha256(FILE), size: FILE.length };
    for (const photo of [{ url: files.url("/file.bin") }, { path: "sub/photo.png" }]) {
      const multipart = await call("uploadPhoto", { caption: "a cat", photo });
      assert.not.ok(multipart.isError, multipart.content[0]?.text);
      assert.equal(multipart.structuredContent, expected, JSON.stringify(photo));
      const whole = await call("putFile", { name: "cat.png", body: photo });
      assert.not.ok(whole.isError, whole.content[0]?.text);
      assert.equal(whole.structuredContent, expected, JSON.stringify(photo));
    }
    assert.equal(
      upstream.received.map(sha256),
      Array.from({ length: 4 }, () => sha256(FILE)),
    );
    const both = await call("putFile", { name: "x", body: { url: files.url("/file.bin"), path: "sub/photo.png" } });
    assert.is(both.isError, true, "the schema allows one of url and path");
  } finally {
    await upstream.close();
  }
});

test("default settings: private addresses, oversize, paths outside, and paths over HTTP are isError, nothing leaks", async () => {
  const upstream = await startUploadUpstream();
  try {
    const call = await server(upstream.baseUrl, { "upload-dir": folder, "upload-max-bytes": "1000" });
    const hits = files.hits.length;
    const port = new URL(files.url("/")).port;
    for (const [body, message] of [
      [
        { url: `http://127.0.0.1:${port}/file.bin?sig=SECRET` },
        /'body': refused to fetch the file at 127\.0\.0\.1:\d+: it is a private/,
      ],
      [{ url: "http://10.20.30.40/x" }, /private, loopback or link-local/],
      [{ url: "http://169.254.169.254/latest/meta-data/iam" }, /private, loopback or link-local/],
      [{ url: `http://[::1]:${port}/x` }, /private, loopback or link-local/],
      [{ url: `http://localhost:${port}/x` }, /private, loopback or link-local/],
      [{ path: "big.bin" }, /larger than the upload limit of 1000 bytes/],
      [{ path: "../secret.txt" }, /outside the folder/],
      [{ path: "escape.txt" }, /outside the folder/],
    ] as const) {
      const result = await call("putFile", { name: "x", body });
      assert.is(result.isError, true, JSON.stringify(body));
      assert.match(result.content[0]!.text!, message);
      assert.not.match(result.content[0]!.text!, /SECRET|meta-data|secret\.txt/);
    }
    const overHttp = await server(upstream.baseUrl, {}, true);
    const refused = await overHttp("uploadPhoto", { photo: { path: "sub/photo.png" } });
    assert.is(refused.isError, true);
    assert.match(refused.content[0]!.text!, /'photo': a \{"path"\} reference is never read over HTTP/);
    assert.equal(upstream.received, [], "nothing reached the upstream");
    assert.is(files.hits.length, hits, "nothing reached the file server");
  } finally {
    await upstream.close();
  }
});

test.run();
