/**
 * Regeneration checks the user's code (generator/pipeline/write/check-custom.ts), through the CLI: the
 * petstore project with the example's custom code (it calls getPet through `api`) is regenerated
 * from a spec without getPet. By default the break is a warning with file:line:column and the tool,
 * the update is written, and tsc agrees on the spot; with --strict-custom the run exits 4 and the
 * folder is byte for byte as before. A regeneration that breaks nothing reports nothing.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProject, repoRoot } from "../support/e2e.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-custom-check-"));
const cli = join(repoRoot, "bin/mcp-gen.js");
const petstore = join(repoRoot, "specs/petstore.yaml");

/** Runs mcp-gen; resolves to its exit code and output (stdout, then stderr). */
async function mcpGen(...args: string[]): Promise<{ code: number; stdout: string; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], {
      cwd: work,
      timeout: 180_000,
    });
    return { code: 0, stdout, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === "number" ? e.code : -1,
      stdout: e.stdout ?? "",
      output: (e.stdout ?? "") + (e.stderr ?? ""),
    };
  }
}

/** The petstore spec without one operation: its YAML block, from `    <method>:` up to `end`. */
function specWithout(operationId: string, end: string): string {
  const text = readFileSync(petstore, "utf8");
  const start = text.indexOf(`      operationId: ${operationId}\n`);
  const from = text.lastIndexOf("\n    ", start) + 1;
  const to = text.indexOf(end, start) + 1;
  assert.ok(start > 0 && to > from, `found ${operationId} in the spec`);
  const path = join(work, `petstore-without-${operationId}.yaml`);
  writeFileSync(path, text.slice(0, from) + text.slice(to));
  return path;
}

/** sha256 of every file under `dir`, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hashes[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return hashes;
}

/** A freshly generated petstore project with the example's custom code in src/custom/. */
async function projectWithCustomCode(name: string): Promise<string> {
  const out = join(work, name);
  const first = await mcpGen(petstore, "-o", out, "--with", "custom", "--quiet");
  assert.is(first.code, 0, first.output);
  cpSync(join(repoRoot, "specs/custom-code/petstore/index.ts"), join(out, "src/custom/index.ts"));
  return out;
}

/** The line and column of `text` in the example's custom code (1-based). */
function positionOf(text: string): { line: number; column: number } {
  const lines = readFileSync(join(repoRoot, "specs/custom-code/petstore/index.ts"), "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes(text));
  return { line: line + 1, column: lines[line]!.indexOf(text) + 1 };
}

test("a removed operation used in src/custom/ is a warning with file:line:column and tool; the update is written; tsc agrees", async () => {
  const out = await projectWithCustomCode("warn");
  const spec = specWithout("getPet", "\n    put:\n");
  const result = await mcpGen(spec, "-o", out, "--json");
  assert.is(result.code, 0, result.output);
  const report = JSON.parse(result.stdout) as { diagnostics: Array<Record<string, unknown>>; deleted: string[] };
  const breaks = report.diagnostics.filter((d) => d.code === "MG205");
  const at = positionOf("getPet({ petId })");
  // The call, and the code that narrows getPet's errors (isErrorResponse(error, "getPet")).
  assert.equal(breaks.map(({ severity, file, line, column, tool }) => ({ severity, file, line, column, tool }))[0], {
    severity: "warning",
    file: "src/custom/index.ts",
    line: at.line,
    column: at.column,
    tool: "getPet",
  });
  assert.ok(breaks.every((d) => d.file === "src/custom/index.ts" && d.severity === "warning"));
  assert.ok(
    breaks.some((d) => d.line === positionOf('isErrorResponse(error, "getPet")').line),
    "the typed error guard of the removed operation breaks too",
  );
  assert.match(String(breaks[0]!.message), /Property 'getPet' does not exist/);
  const types = readFileSync(join(out, "src/tools/pets.ts"), "utf8"); // the tools of tag "pets"
  assert.ok(types.includes("ListPetsInput") && !types.includes("GetPetInput"), "the update was written");
  // The compiler of the project's own build reports the same place.
  const tsc = await compileProject(out, { noEmit: true }).then(
    () => "compiled",
    (error: Error) => error.message,
  );
  assert.match(tsc, new RegExp(`src/custom/index\\.ts\\(${at.line},${at.column}\\): error TS2339`));
});

test("a changed named schema breaks the code that uses its type: Pet's name renamed is a warning at pet.name", async () => {
  const out = await projectWithCustomCode("schema");
  const text = readFileSync(petstore, "utf8");
  const renamed = text.replace(
    "      required: [name]\n      properties:\n        name:",
    "      required: [title]\n      properties:\n        title:",
  );
  assert.ok(renamed !== text, "NewPet's name renamed");
  const spec = join(work, "petstore-title.yaml");
  writeFileSync(spec, renamed);
  const result = await mcpGen(spec, "-o", out, "--json");
  assert.is(result.code, 0, result.output);
  const report = JSON.parse(result.stdout) as { diagnostics: Array<Record<string, unknown>> };
  const breaks = report.diagnostics.filter((d) => d.code === "MG205");
  const at = positionOf("pet.name}");
  assert.ok(
    breaks.some(
      (d) =>
        d.line === at.line &&
        d.file === "src/custom/index.ts" &&
        /Property 'name' does not exist on type 'Pet'/.test(String(d.message)),
    ),
    JSON.stringify(breaks),
  );
  assert.match(readFileSync(join(out, "src/schemas.ts"), "utf8"), /  title: string;/, "the new types were written");
});

test("--strict-custom: the same break exits 4 and writes nothing", async () => {
  const out = await projectWithCustomCode("strict");
  const before = snapshot(out);
  const spec = specWithout("getPet", "\n    put:\n");
  const result = await mcpGen(spec, "-o", out, "--strict-custom");
  assert.is(result.code, 4, result.output);
  assert.match(
    result.output,
    /error MG205 src\/custom\/index\.ts:\d+:\d+: Property 'getPet' does not exist .*\(tool getPet\)/,
  );
  assert.match(result.output, /nothing was written/);
  assert.equal(snapshot(out), before, "the folder is unchanged");
});

test("a regeneration that leaves src/custom/ compiling reports no break, --strict-custom included", async () => {
  const out = await projectWithCustomCode("clean");
  const spec = specWithout("deletePet", "\n  /store/inventory:\n"); // the custom code does not use it
  const result = await mcpGen(spec, "-o", out, "--strict-custom", "--json");
  assert.is(result.code, 0, result.output);
  const report = JSON.parse(result.stdout) as { diagnostics: Array<{ code: string }> };
  assert.equal(
    report.diagnostics.filter((d) => d.code === "MG205"),
    [],
  );
});

test.run();
