/**
 * Regeneration end to end (issue 6, "done when"): generate → add custom code and a file of one's own
 * → change the spec → regenerate. Custom code and user files survive, stale files are gone, tool names
 * are kept, the diff and the version bump are right; hand edits stop the run; --check reports staleness.
 */
import { execFile } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { GenerationError } from "../../generator/shared/diagnostics.js";
import { generate } from "../../generator/pipeline/generate.js";
import { compileProject } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const v1 = join(root, "specs/fixtures/regen/v1.yaml");
const v2 = join(root, "specs/fixtures/regen/v2.yaml");
const work = mkdtempSync(join(tmpdir(), "mcp-gen-regen-"));
const run = promisify(execFile);

async function mcpGen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(root, "bin/mcp-gen.js"), ...args], {
      cwd: work,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const toolNames = (dir: string) =>
  (JSON.parse(read(dir, ".mcp-gen/tools.json")) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);

/** A custom tool written against the extension API, as a user would add it. */
const CUSTOM_TOOL = `import { defineExtension } from "../runtime/features/custom/define-extension.js";
import { mine } from "./my-tool.js";

export default defineExtension({
  tools: [
    {
      name: "echo_mine",
      description: "Returns the user's constant.",
      inputSchema: { type: "object", properties: {} },
      handler: () => ({ content: [{ type: "text", text: String(mine) }] }),
    },
  ],
});
`;

test("regenerating after the spec changed keeps user code and tool names, removes stale files, bumps the version", async () => {
  const out = join(work, "server");
  const first = await generate({ spec: v1, outDir: out, features: ["custom"] });
  assert.is(first.diff, undefined, "no diff on a first generation");
  assert.equal(toolNames(out), ["listItems", "createItem", "getItem", "deleteItem", "get_things"]);
  assert.is(JSON.parse(read(out, "package.json")).version, "1.0.0");
  const customReadme = read(out, "src/custom/README.md");

  // The user's own code and files.
  writeFileSync(join(out, "src/custom/README.md"), "my notes about the custom folder\n");
  writeFileSync(join(out, "src/custom/my-tool.ts"), "export const mine = 1;\n");
  writeFileSync(join(out, "src/custom/index.ts"), CUSTOM_TOOL);
  writeFileSync(join(out, "NOTES.md"), "mine\n");
  writeFileSync(join(out, ".env"), "API_BASE_URL=http://127.0.0.1:1\n");
  writeFileSync(join(out, "package-lock.json"), "{}\n");
  // Custom code needs a dependency; the user also raised the version themselves (npm version minor).
  const userPkg = JSON.parse(read(out, "package.json"));
  userPkg.dependencies["left-pad"] = "1.3.0";
  userPkg.scripts.lint = "echo lint";
  userPkg.author = "Me";
  userPkg.version = "1.1.0";
  writeFileSync(join(out, "package.json"), JSON.stringify(userPkg, null, 2) + "\n");

  const second = await generate({ spec: v2, outDir: out });
  assert.ok(customReadme.length > 0);
  assert.is(read(out, "src/custom/README.md"), "my notes about the custom folder\n", "once-file never overwritten");
  assert.is(read(out, "src/custom/my-tool.ts"), "export const mine = 1;\n");
  assert.is(read(out, "src/custom/index.ts"), CUSTOM_TOOL, "the custom tool survives regeneration");
  // ...and still builds and answers next to the regenerated tools.
  await compileProject(out);
  const client = new Client({ name: "regen-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(out, "dist/index.js")], stderr: "ignore" }),
  );
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes("echo_mine") && names.includes("updateItem"), names.join(", "));
    const echoed = await client.callTool({ name: "echo_mine", arguments: {} });
    assert.equal(echoed.content, [{ type: "text", text: "1" }]);
  } finally {
    await client.close();
  }
  rmSync(join(out, "node_modules"));
  rmSync(join(out, "dist"), { recursive: true, force: true });
  assert.is(read(out, "NOTES.md"), "mine\n");
  assert.is(read(out, ".env"), "API_BASE_URL=http://127.0.0.1:1\n");
  assert.is(read(out, "package-lock.json"), "{}\n");
  // Tool types live in one module per tag (else per first path segment): deleteItem's tag is gone.
  assert.not.ok(existsSync(join(out, "src/tools/admin.ts")), "stale tool module deleted");
  assert.ok(existsSync(join(out, "src/tools/edits.ts")) && existsSync(join(out, "src/tools/items.ts")));
  assert.match(read(out, "src/tools/edits.ts"), /export interface UpdateItemInput/);

  // Names: getItem keeps its name although its operationId became fetchItem; the newcomer whose
  // operationId collides (GetItem, earlier in the new spec) gets the suffix, not the existing tool.
  assert.equal(toolNames(out), ["get_things", "GetItem_2", "getItem", "updateItem", "listItems", "createItem"]);

  const diff = second.diff!;
  assert.equal(diff.added, ["GetItem_2", "updateItem"]);
  assert.equal(diff.removed, ["deleteItem"]);
  assert.ok(diff.breaking);
  assert.is(diff.bump, "major");
  const byName = new Map(diff.changed.map((c) => [c.name, c]));
  const list = byName.get("listItems")!;
  assert.ok(
    list.input.some((c) => c.at === "owner" && c.verdict === "breaking" && /required argument added/.test(c.message)),
  );
  assert.ok(
    list.input.some(
      (c) => c.at === "status" && c.verdict === "breaking" && /"broken" no longer allowed/.test(c.message),
    ),
  );
  const create = byName.get("createItem")!;
  assert.equal(
    create.input.map((c) => [c.at, c.verdict]),
    [["color", "compatible"]],
  );
  const get = byName.get("getItem")!;
  assert.is(get.previousName, undefined, "not a rename: the lock kept the name");
  assert.ok(get.output.some((c) => c.at === "color" && c.verdict === "compatible"));
  const pkg = JSON.parse(read(out, "package.json"));
  assert.is(pkg.version, "2.0.0", "major bump from the user's 1.1.0");
  assert.is(pkg.dependencies["left-pad"], "1.3.0", "the user's dependency survives");
  assert.is(pkg.scripts.lint, "echo lint");
  assert.is(pkg.author, "Me");
  assert.is(pkg.dependencies.ajv, userPkg.dependencies.ajv, "the generator's dependencies are still there");
  assert.match(read(out, "src/server-info.ts"), /version: "2.0.0"/);
  assert.ok((await generate({ spec: v2, outDir: out, check: true })).check!.upToDate, "--check is clean after a merge");

  // Same spec again: nothing changes, the version stays.
  const third = await generate({ spec: v2, outDir: out });
  assert.is(third.diff!.bump, "none");
  assert.equal(third.write!.written, []);
  assert.is(JSON.parse(read(out, "package.json")).version, "2.0.0");
});

test("a hand-edited generated file stops the run (named in the error) unless --force", async () => {
  const out = join(work, "edited");
  await generate({ spec: v1, outDir: out, features: ["custom"] });
  appendFileSync(join(out, "src/tools/items.ts"), "// my edit\n");
  const before = read(out, ".mcp-gen/manifest.json");
  try {
    await generate({ spec: v2, outDir: out });
    assert.unreachable("should have refused");
  } catch (error) {
    assert.instance(error, GenerationError);
    const text = (error as GenerationError).diagnostics.map((d) => `${d.code} ${d.message} ${d.help}`).join("\n");
    assert.match(text, /MG203.*src\/tools\/items\.ts/);
    assert.match(text, /--force/);
  }
  assert.is(read(out, ".mcp-gen/manifest.json"), before, "nothing was written");
  assert.ok(existsSync(join(out, "src/tools/admin.ts")));
  const forced = await generate({ spec: v2, outDir: out, force: true });
  assert.equal(forced.write!.overwritten, ["src/tools/items.ts"]);
  assert.not.match(read(out, "src/tools/items.ts"), /my edit/);
});

test("--no-bump keeps the version; --reset-tool-names renames from the spec", async () => {
  const out = join(work, "nobump");
  await generate({ spec: v1, outDir: out });
  await generate({ spec: v2, outDir: out, bump: false });
  assert.is(JSON.parse(read(out, "package.json")).version, "1.0.0");
  await generate({ spec: v2, outDir: out, resetToolNames: true });
  assert.equal(toolNames(out), ["get_things", "GetItem", "fetchItem", "updateItem", "listItems", "createItem"]);
});

test("CLI: --check exits 0 when fresh, 5 when stale, writes nothing; diff --json and exit codes", async () => {
  const out = join(work, "checked");
  const made = await mcpGen(v1, "-o", out, "--with", "custom", "--quiet");
  assert.is(made.code, 0, made.stderr);
  assert.is(made.stdout, "", "--quiet prints nothing on success");
  writeFileSync(join(out, "mine.txt"), "user file, not a reason to be stale");
  const fresh = await mcpGen(v1, "-o", out, "--check");
  assert.is(fresh.code, 0, fresh.stdout + fresh.stderr);
  const stale = await mcpGen(v2, "-o", out, "--check");
  assert.is(stale.code, 5);
  assert.match(stale.stdout, /stale[\s\S]*not generated any more: src\/tools\/admin\.ts/);
  assert.ok(existsSync(join(out, "src/tools/admin.ts")), "--check wrote nothing");

  const json = await mcpGen("diff", v1, v2, "--json");
  assert.is(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { bump: string; breaking: boolean; removed: string[] };
  assert.is(parsed.bump, "major");
  assert.equal(parsed.removed, ["deleteItem"]);
  const failing = await mcpGen("diff", v1, v2, "--fail-on-breaking");
  assert.is(failing.code, 6);
  assert.match(failing.stdout, /- deleteItem {2}\(removed, BREAKING\)/);
  const renames = await mcpGen("diff", v1, v2, "--no-keep-names");
  assert.match(renames.stdout, /getItem → fetchItem {2}\(renamed, BREAKING\)/);

  appendFileSync(join(out, "src/server-info.ts"), "// edit\n");
  const conflict = await mcpGen(v2, "-o", out, "--json");
  assert.is(conflict.code, 4);
  assert.match(JSON.parse(conflict.stdout).diagnostics[0].message, /src\/server-info\.ts/);
});

/**
 * An API of `count` operations whose responses are 80 typed fields: within the output budget a tool
 * gets in an API of up to 64 tools, over the share of a bigger one (output-compact.ts).
 */
function grownSpec(count: number, extra: boolean): string {
  const fields: Record<string, unknown> = {};
  for (let i = 0; i < 80; i++) fields[`field${i}`] = { type: i % 2 ? "integer" : "string" };
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    if (extra && i === 20)
      paths["/health"] = { get: { operationId: "health", responses: { "204": { description: "ok" } } } };
    paths[`/things${i}/{id}`] = {
      put: {
        operationId: `putThing${i}`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewThing" } } },
        },
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
        },
      },
    };
  }
  const spec = {
    openapi: "3.0.3",
    info: { title: "Growing API", version: "1.0.0" },
    servers: [{ url: "https://api.example.com" }],
    paths,
    components: {
      schemas: {
        Thing: { type: "object", required: ["field0"], properties: fields },
        NewThing: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
      },
    },
  };
  const file = join(work, `grown-${count}-${extra}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

test("issue 36: an operation added elsewhere leaves every other tool's inputSchema and outputSchema byte-identical", async () => {
  const out = join(work, "grown");
  const listed = () =>
    new Map(
      (
        JSON.parse(read(out, "data/tools.json")) as Array<{
          name: string;
          inputSchema: unknown;
          outputSchema?: unknown;
        }>
      ).map((tool) => [tool.name, JSON.stringify([tool.inputSchema, tool.outputSchema])]),
    );
  await generate({ spec: grownSpec(64, false), outDir: out });
  const before = listed();
  assert.is(before.size, 64);
  // The 65th operation halves a new tool's share of the API's output budget.
  const result = await generate({ spec: grownSpec(64, true), outDir: out });
  const after = listed();
  assert.is(after.size, 65);
  for (const [name, schemas] of before) assert.is(after.get(name), schemas, `${name}: schemas unchanged`);
  assert.equal(result.diff?.added, ["health"]);
  assert.equal(result.diff?.changed, []);
  assert.is(JSON.parse(read(out, "package.json")).version, "1.1.0", "a minor version, not a major one");
  // `mcp-gen diff` of the two documents reads the same.
  const diff = await mcpGen("diff", grownSpec(64, false), grownSpec(64, true), "--json");
  const parsed = JSON.parse(diff.stdout) as { bump: string; changed: unknown[]; added: string[] };
  assert.equal([parsed.bump, parsed.changed, parsed.added], ["minor", [], ["health"]]);
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
