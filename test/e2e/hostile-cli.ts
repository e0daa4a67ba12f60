/**
 * The hostile-spec folder through the real `mcp-gen` command (issue 10): every spec ends in exit 0
 * or 1 with coded diagnostics — never 3, "a bug in mcp-gen" — and a refused spec leaves neither an
 * output folder nor a staging folder behind. What does generate compiles under strict.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProject } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "bin/mcp-gen.js");
const work = mkdtempSync(join(tmpdir(), "mcp-gen-hostile-cli-"));
const run = promisify(execFile);

async function mcpGen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: work,
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** The specs of specs/hostile/ (files under a `parts/` folder are only referenced), plus generated giants. */
function hostileSpecs(): string[] {
  const dir = join(root, "specs/hostile");
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === "parts" ? [] : walk(join(d, e.name))) : [join(d, e.name)],
    );
  const deep = (n: number) => '{"type":"object","properties":{"a":'.repeat(n) + "{}" + "}}".repeat(n);
  const generated = {
    "deep-schema.json": `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":${deep(10_000)}}}}}}}}}`,
    "deep-schema.yaml": `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    D: ${deep(10_000)}\n`,
    "deep-example.json": `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"D":{"example":${"[".repeat(100_000)}0${"]".repeat(100_000)}}}}}`,
    "not-a-spec.yaml": "- just\n- a list\n",
    "binary.json": "\u0000\u0001\u0002{",
  };
  for (const [name, text] of Object.entries(generated)) writeFileSync(join(work, name), text);
  return [
    ...walk(dir).filter((f) => /\.(ya?ml|json)$/.test(f)),
    ...Object.keys(generated).map((name) => join(work, name)),
  ];
}

test("every hostile spec ends in exit 0 or 1; a refusal writes nothing, not even a staging folder", async () => {
  const outcomes: string[] = [];
  for (const spec of hostileSpecs()) {
    const name = relative(root, spec).replace(/\W+/g, "-");
    const out = join(work, `out-${name}`);
    const result = await mcpGen(spec, "-o", out, "--json");
    const report = JSON.parse(result.stdout) as {
      exitCode: number;
      diagnostics: Array<{ code: string; severity: string }>;
    };
    assert.ok(result.code === 0 || result.code === 1, `${name}: exit ${result.code} ${result.stderr.slice(0, 400)}`);
    assert.is(report.exitCode, result.code);
    if (result.code === 1) {
      assert.ok(
        report.diagnostics.some((d) => d.severity === "error" && /^MG(0\d\d|102)$/.test(d.code)),
        name,
      );
      assert.not.ok(existsSync(out), `${name}: no output folder`);
    }
    outcomes.push(`${name}: ${result.code}`);
  }
  assert.equal(
    readdirSync(work).filter((entry) => entry.includes(".mcp-gen-")),
    [],
    "no staging folder left",
  );
  assert.ok(outcomes.length >= 12, outcomes.join("\n"));
  assert.ok(outcomes.includes("specs-hostile-newlines-yaml: 0"), "the newline spec is valid and generates");
});

test("the newline-injection spec's project compiles under strict (no comment break-out in TypeScript)", async () => {
  const out = join(work, "out-specs-hostile-newlines-yaml");
  await compileProject(out, { noEmit: true });
});

test("an output path under a file is exit 4 with MG204, with or without --force", async () => {
  const file = join(work, "plain-file");
  writeFileSync(file, "x");
  for (const force of [[], ["--force"]]) {
    const result = await mcpGen(join(root, "specs/petstore.yaml"), "-o", join(file, "server"), ...force);
    assert.is(result.code, 4, result.stderr);
    assert.match(result.stderr, /MG204/);
  }
});

test.run();
