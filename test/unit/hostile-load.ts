/**
 * Hostile specs at the load stage (issue 10, items 1 and 3): file `$ref`s never read outside the
 * spec's folder tree (or --ref-root), special files are refused, and alias bombs, deep nesting and
 * huge nested examples end in coded diagnostics instead of a crash.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { READ_LIMITS } from "../../generator/pipeline/load/limits.js";
import { loadSpec } from "../../generator/pipeline/load/load-spec.js";

const hostile = fileURLToPath(new URL("../../../specs/hostile/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mcp-gen-hostile-load-"));

/** A spec whose one response schema is `$ref: <ref>`, written to `dir/spec.yaml`. */
function specWithRef(dir: string, ref: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "spec.yaml");
  writeFileSync(
    path,
    `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: ${JSON.stringify(ref)}\n`,
  );
  return path;
}

async function load(path: string, refRoot?: string) {
  const bag = new DiagnosticBag();
  const spec = await loadSpec(path, { validate: false, ...(refRoot ? { refRoot } : {}) }, bag);
  return { spec, bag, errors: bag.items.filter((d) => d.severity === "error") };
}

const SCHEMA_POINTER = "#/paths/~1a/get/responses/200/content/application~1json/schema";

test("file $refs outside the spec's folder are refused with MG008 at the reference: absolute, ../, file://, /proc", async () => {
  for (const name of ["ref-absolute.yaml", "ref-parent.yaml", "ref-file-url.yaml", "ref-proc.yaml"]) {
    const { spec, errors } = await load(join(hostile, name));
    assert.is(spec, undefined, name);
    assert.equal(
      errors.map((d) => d.code),
      ["MG008"],
      name,
    );
    assert.is(errors[0]!.pointer, "#/paths/~1things/get/responses/200/content/application~1json/schema", name);
    assert.match(errors[0]!.help!, /--ref-root/);
  }
});

test("odd references are refused with MG008, never a crash: encoded slashes, a host, other schemes; a missing file is MG005", async () => {
  const dir = join(work, "odd");
  for (const ref of [
    "..%2F..%2F..%2Fetc%2Fhostname",
    "%2Fetc%2Fhostname",
    "//etc/hostname",
    "file://evil.example/etc/hostname",
    "data:application/json,{}",
    "javascript:alert(1)",
    "%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/hostname",
  ]) {
    const { spec, errors } = await load(specWithRef(dir, ref));
    assert.is(spec, undefined, ref);
    assert.equal(
      errors.map((d) => [d.code, d.pointer]),
      [["MG008", SCHEMA_POINTER]],
      ref,
    );
  }
  const { errors } = await load(specWithRef(dir, "schemas/missing.yaml"));
  assert.equal(
    errors.map((d) => [d.code, d.pointer]),
    [["MG005", SCHEMA_POINTER]],
  );
  assert.match(errors[0]!.message, /does not exist/);
});

test("a $ref in a referenced file is confined too (nothing of the outside file is read)", async () => {
  const { spec, errors } = await load(join(hostile, "ref-nested/spec.yaml"));
  assert.is(spec, undefined);
  assert.equal(
    errors.map((d) => d.code),
    ["MG008"],
  );
  assert.match(errors[0]!.message, /\/etc\/hostname: it is outside/);
});

test("a symlink inside the folder that points outside is refused; a FIFO is refused without blocking", async () => {
  const outside = join(work, "outside.yaml");
  writeFileSync(outside, "type: string\ndescription: SECRET\n");
  const dir = join(work, "links");
  mkdirSync(dir, { recursive: true });
  symlinkSync(outside, join(dir, "link.yaml"));
  let result = await load(specWithRef(dir, "link.yaml"));
  assert.equal(
    result.errors.map((d) => [d.code, d.pointer]),
    [["MG008", SCHEMA_POINTER]],
  );
  assert.match(result.errors[0]!.message, /is a link to .*outside/);

  const fifoDir = join(work, "fifo");
  mkdirSync(fifoDir, { recursive: true });
  execFileSync("mkfifo", [join(fifoDir, "pipe.yaml")]);
  result = await load(specWithRef(fifoDir, "pipe.yaml"));
  assert.equal(
    result.errors.map((d) => d.code),
    ["MG008"],
  );
  assert.match(result.errors[0]!.message, /not a regular file/);
});

test("files inside the folder tree are bundled; --ref-root widens the tree on purpose", async () => {
  const dir = join(work, "tree");
  mkdirSync(join(dir, "api", "schemas"), { recursive: true });
  writeFileSync(join(dir, "shared.yaml"), "type: object\nproperties:\n  id: { type: integer }\n");
  writeFileSync(join(dir, "api", "schemas", "thing.yaml"), "type: object\nproperties:\n  name: { type: string }\n");
  const inside = await load(specWithRef(join(dir, "api"), "schemas/thing.yaml"));
  assert.equal(inside.errors, []);
  assert.match(JSON.stringify(inside.spec!.document), /"name"/);

  const spec = specWithRef(join(dir, "api"), "../shared.yaml");
  assert.equal(
    (await load(spec)).errors.map((d) => d.code),
    ["MG008"],
  );
  const widened = await load(spec, dir);
  assert.equal(widened.errors, []);
  assert.match(JSON.stringify(widened.spec!.document), /"id"/);
});

test("--ref-root never opens /proc, /sys or /dev", async () => {
  const { errors } = await load(join(hostile, "ref-proc.yaml"), "/");
  assert.equal(
    errors.map((d) => d.code),
    ["MG008"],
  );
  assert.match(errors[0]!.message, /special file/);
  assert.not.match(JSON.stringify(errors), new RegExp(`PATH=|${hostname()}`));
});

test("a YAML alias bomb (billion laughs) is MG007, in the spec and in a referenced file", async () => {
  const started = performance.now();
  let result = await load(join(hostile, "billion-laughs.yaml"));
  assert.equal(
    result.errors.map((d) => d.code),
    ["MG007"],
  );
  assert.match(result.errors[0]!.message, /alias/);
  const dir = join(work, "bomb");
  mkdirSync(dir, { recursive: true });
  const bomb = [
    "a: &a [x, x, x, x, x, x, x, x, x]",
    ..."bcdefghi".split("").map((c, i) => `${c}: &${c} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`),
    "type: string",
  ].join("\n");
  writeFileSync(join(dir, "bomb.yaml"), bomb + "\n");
  result = await load(specWithRef(dir, "bomb.yaml"));
  assert.equal(
    result.errors.map((d) => d.code),
    ["MG007"],
  );
  // Bounded: the limit stops the expansion early (the unbounded bomb ran 15 s and 2 GB).
  assert.ok(performance.now() - started < 10_000);
});

test("nesting past the limit is MG007 with the pointer of the first too-deep node (JSON, YAML, examples)", async () => {
  const deepSchema = (n: number) =>
    '{"type":"object","properties":{"a":'.repeat(n) + '{"type":"string"}' + "}}".repeat(n);
  const json = join(work, "deep.json");
  writeFileSync(
    json,
    `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"D":${deepSchema(10_000)}}}}`,
  );
  let result = await load(json);
  assert.equal(
    result.errors.map((d) => d.code),
    ["MG007"],
  );
  assert.ok(result.errors[0]!.pointer!.startsWith("#/components/schemas/D/properties/a/properties/a"));
  assert.is(result.errors[0]!.pointer!.split("/").length - 1, READ_LIMITS.maxDepth);

  const yaml = join(work, "deep.yaml");
  writeFileSync(
    yaml,
    `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    D: ${deepSchema(10_000)}\n`,
  );
  result = await load(yaml);
  assert.equal(
    result.errors.map((d) => d.code),
    ["MG007"],
  );

  const example = join(work, "deep-example.json");
  writeFileSync(
    example,
    `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"D":{"type":"array","example":${"[".repeat(100_000)}1${"]".repeat(100_000)}}}}}`,
  );
  result = await load(example);
  assert.equal(
    result.errors.map((d) => d.code),
    ["MG007"],
  );
  assert.ok(result.errors[0]!.pointer!.startsWith("#/components/schemas/D/example/0/0"));
});

test("a document within the depth limit loads", async () => {
  const path = join(work, "fine.json");
  const n = Math.floor((READ_LIMITS.maxDepth - 8) / 2);
  writeFileSync(
    path,
    `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"D":${'{"type":"object","properties":{"a":'.repeat(n)}{}${"}}".repeat(n)}}}}`,
  );
  const { spec, errors } = await load(path);
  assert.equal(errors, []);
  assert.ok(spec);
});

test.run();
