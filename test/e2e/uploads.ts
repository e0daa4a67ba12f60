/**
 * Uploads by reference in a real generated server (specs/fixtures/uploads.yaml, compiled under
 * strict), driven by the official SDK client over stdio: a file given as `{"url"}` and as
 * `{"path"}` reaches the upstream byte-identical, as a multipart file part and as an octet-stream
 * body; with the default settings a private address and a path outside the allowed folder are
 * refused; over HTTP the server refuses to start with an allowed folder.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a tsc build of a generated project, started over stdio and HTTP.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { compileProject, repoRoot, run } from "../support/e2e.js";
import { sha256, startFiles, startUploadUpstream, type Files } from "../support/upload-fixture.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-uploads-e2e-"));
const project = join(work, "server");
const allowed = join(work, "allowed");
const FILE = randomBytes(100_000);
let files: Files;
let upstream: Awaited<ReturnType<typeof startUploadUpstream>>;

interface Result {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
}

/** An SDK client of the generated server over stdio, started with `args`. */
async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: "uploads-e2e", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(project, "dist/index.js"), "--base-url", upstream.baseUrl, ...args],
      stderr: "ignore",
    }),
  );
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

test.before(async () => {
  mkdirSync(allowed);
  writeFileSync(join(allowed, "photo.png"), FILE);
  writeFileSync(join(work, "secret.txt"), "TOP-SECRET");
  files = await startFiles(FILE);
  upstream = await startUploadUpstream();
  await generate({ spec: join(repoRoot, "specs/fixtures/uploads.yaml"), outDir: project });
  await compileProject(project);
});

test.after(async () => {
  await files.close();
  await upstream.close();
});

test("the generated server vendors feature uploads and lists {url}/{path} beside base64", async () => {
  const client = await connect([]);
  try {
    const { tools } = await client.listTools();
    const photo = tools.find((tool) => tool.name === "uploadPhoto")!.inputSchema.properties!.photo as {
      anyOf: unknown[];
      description: string;
    };
    assert.is(photo.anyOf.length, 2);
    assert.match(photo.description, /\{"url": "https:\/\/…"\}/);
  } finally {
    await client.close();
  }
});

test("by URL and by allowed path, multipart and octet-stream: the upstream receives the same bytes", async () => {
  // The file server is on 127.0.0.1: only the dangerous option lets a URL reach it.
  const client = await connect(["--upload-dir", allowed, "--upload-allow-private"]);
  try {
    const expected = { sha256: sha256(FILE), size: FILE.length };
    const before = upstream.received.length;
    for (const reference of [{ url: files.url("/file.bin") }, { path: "photo.png" }]) {
      const multipart = await call(client, "uploadPhoto", { caption: "a cat", photo: reference });
      assert.not.ok(multipart.isError, multipart.content[0]?.text);
      assert.equal(multipart.structuredContent, expected);
      const whole = await call(client, "putFile", { name: "cat.png", body: reference });
      assert.not.ok(whole.isError, whole.content[0]?.text);
      assert.equal(whole.structuredContent, expected);
    }
    assert.equal(
      upstream.received.slice(before).map(sha256),
      [1, 2, 3, 4].map(() => sha256(FILE)),
    );
  } finally {
    await client.close();
  }
});

test("default settings: private addresses, a loopback name and paths outside the folder are refused", async () => {
  const client = await connect(["--upload-dir", allowed, "--upload-max-bytes", "1000"]);
  try {
    const before = upstream.received.length;
    const port = new URL(files.url("/")).port;
    for (const [body, message] of [
      [{ url: files.url("/file.bin") }, /private, loopback or link-local/],
      [{ url: `http://10.0.0.8:${port}/x` }, /private, loopback or link-local/],
      [{ url: "http://169.254.169.254/latest/meta-data/" }, /private, loopback or link-local/],
      [{ url: `http://[::1]:${port}/file.bin` }, /private, loopback or link-local/],
      [{ url: `http://localhost:${port}/file.bin` }, /private, loopback or link-local/],
      [{ path: "photo.png" }, /larger than the upload limit of 1000 bytes/],
      [{ path: "../secret.txt" }, /outside the folder/],
    ] as const) {
      const result = await call(client, "putFile", { name: "x", body });
      assert.is(result.isError, true, JSON.stringify(body));
      assert.match(result.content[0]!.text!, message);
      assert.not.match(result.content[0]!.text!, /TOP-SECRET|meta-data/);
    }
    assert.is(upstream.received.length, before, "nothing reached the upstream");
  } finally {
    await client.close();
  }
});

test("over HTTP the server refuses to start with --upload-dir", async () => {
  const args = [join(project, "dist/index.js"), "--http", "--port", "0", "--upload-dir", allowed];
  const refused = await run(process.execPath, args, { cwd: project, timeoutMs: 20_000 }).then(
    () => "started",
    (error: Error) => error.message,
  );
  assert.match(refused, /failed \(code 2,/);
  assert.match(refused, /--upload-dir \(MCP_UPLOAD_DIR\) is for stdio only/);
});

test.run();
