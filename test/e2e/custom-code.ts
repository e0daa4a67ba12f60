/**
 * The golden petstore's own code (specs/custom-code/petstore, in generated/petstore/src/custom/),
 * built with the generated project's strict tsconfig and driven over stdio by the SDK client
 * against a local upstream: the listPets hook (keyed by tool name, typed arguments and result)
 * rewrites the arguments and adds to the result; the composite retag_pet tool calls getPet and
 * then updatePet through the typed `api`, and turns the upstream's 404 (its typed `Error` body)
 * into its own answer; describe_pets gets `Pet[]` from `api.listPets()`. MISUSE, compiled beside
 * it, holds what must not compile: each `@ts-expect-error` fails the build once a type loosens.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startUpstream, type Reply, type Upstream } from "../support/runtime-fixture.js";
import { compileProject, repoRoot } from "../support/e2e.js";
import { materializeExample } from "../support/example-custom.js";

const dir = join(mkdtempSync(join(tmpdir(), "mcp-gen-custom-")), "petstore");
const json = (status: number, body: unknown): Reply => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
let upstream: Upstream;
let client: Client;

/** Code that must not compile against the petstore's types (src/custom/misuse.ts of the copy). */
const MISUSE = `import { isErrorResponse, type Api } from "../api.js";
import type { NewPet, Pet, PetStatus } from "../schemas.js";

export async function misuse(api: Api): Promise<void> {
  const pets = await api.listPets();
  const typed: Pet[] = pets;
  // @ts-expect-error listPets resolves to the array, not to the wire's { result } wrapper
  void pets.result;
  // @ts-expect-error a pet's id is a number
  const id: string = pets[0]!.id;
  // @ts-expect-error a status is one of the enum's values
  const sold: PetStatus = "sold";
  // @ts-expect-error a pet has a name
  const nameless: Pet = { id: 1 };
  // @ts-expect-error a pet's tag may be null
  void (await api.getPet({ petId: 1 })).tag.length;
  // @ts-expect-error limit is a number
  await api.listPets({ limit: "10" });
  // @ts-expect-error a new pet has no read-only id to send
  const withId: NewPet = { name: "Rex", id: 1 };
  // @ts-expect-error deletePet answers with no content
  const gone: Pet = await api.deletePet({ petId: 1 });
  try {
    await api.getPet({ petId: 1 });
  } catch (error) {
    if (isErrorResponse(error, "getPet") && typeof error.body === "object") {
      const code: number = error.body.code;
      // @ts-expect-error the error body is the spec's Error: code is a number
      const text: string = error.body.code;
      void [code, text];
    }
  }
  void [typed, id, sold, nameless, withId, gone];
}
`;

test.before(async () => {
  await materializeExample(repoRoot, "petstore", dir);
  writeFileSync(join(dir, "src/custom/misuse.ts"), MISUSE);
  await compileProject(dir);
  upstream = await startUpstream((r) => {
    if (r.method === "GET" && r.url.includes("/pets/42"))
      return json(200, { id: 42, name: "Rex", tag: "shy", status: "available" });
    if (r.method === "PUT" && r.url.includes("/pets/42")) return json(200, { id: 42, ...JSON.parse(r.body) });
    if (r.method === "GET" && /\/pets(\?|$)/.test(r.url))
      return json(200, [
        { id: 1, name: "Rex" },
        { id: 2, name: "Tom" },
      ]);
    return json(404, { code: 404, message: "no such pet" });
  });
  client = new Client({ name: "custom-code-e2e", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(dir, "dist/index.js"), "--base-url", upstream.baseUrl],
      stderr: "ignore",
    }),
  );
});

test.after(async () => {
  await client?.close();
  await upstream?.close();
});

const texts = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? "");

test("the custom tool is listed beside the operations", async () => {
  const { tools } = await client.listTools();
  const retag = tools.find((tool) => tool.name === "retag_pet");
  assert.ok(retag, "retag_pet listed");
  assert.equal(retag!.inputSchema.required, ["petId", "tag"]);
});

test("the listPets hook caps the limit sent upstream and adds a count to the result", async () => {
  const before = upstream.received.length;
  const result = await client.callTool({ name: "listPets", arguments: { limit: 80, tags: ["calm"] } });
  assert.not.ok(result.isError);
  const sent = upstream.received.slice(before);
  assert.is(sent.length, 1);
  assert.match(sent[0]!.url, /[?&]limit=50(&|$)/);
  assert.match(sent[0]!.url, /[?&]tags=calm(&|$)/);
  assert.equal(result.structuredContent, {
    result: [
      { id: 1, name: "Rex" },
      { id: 2, name: "Tom" },
    ],
  });
  assert.is(texts(result).at(-1), "2 pet(s) listed.");
});

test("retag_pet calls getPet, then updatePet with the pet's name and status and the new tag", async () => {
  const before = upstream.received.length;
  const result = await client.callTool({ name: "retag_pet", arguments: { petId: 42, tag: "calm" } });
  assert.not.ok(result.isError, JSON.stringify(result));
  const sent = upstream.received.slice(before);
  assert.equal(
    sent.map((r) => `${r.method} ${new URL(r.url, "http://x").pathname}`),
    ["GET /api/v1/pets/42", "PUT /api/v1/pets/42"],
  );
  assert.equal(JSON.parse(sent[1]!.body), { name: "Rex", tag: "calm", status: "available" });
  assert.equal(result.structuredContent, { id: 42, previousTag: "shy", tag: "calm" });
  assert.is(texts(result)[0], "Pet Rex (#42, calm, available) is now tagged calm.");
});

test("describe_pets gets the API's Pet[] from api.listPets(), unwrapped from the wire's { result }", async () => {
  const result = await client.callTool({ name: "describe_pets", arguments: { status: "available" } });
  assert.not.ok(result.isError, JSON.stringify(result));
  assert.equal(result.structuredContent, { count: 2, names: ["Rex", "Tom"] });
  assert.equal(texts(result), ["Rex (#1)\nTom (#2)"]);
});

test("retag_pet answers a missing pet itself: the api call's ApiError carries the upstream 404", async () => {
  const before = upstream.received.length;
  const result = await client.callTool({ name: "retag_pet", arguments: { petId: 9, tag: null } });
  assert.ok(result.isError);
  assert.equal(texts(result), ["no such pet"], "the message of the upstream's Error body");
  assert.equal(
    upstream.received.slice(before).map((r) => r.method),
    ["GET"],
    "no update after the failed read",
  );
});

test.run();
