/**
 * The generator's rooms (ARCHITECTURE.md): `shared/` below `pipeline/` (its stages in their order,
 * load → ir → plan → emit → write, then generate.ts) below `commands/` (diff, lint and check side by
 * side, workspace above them) below `index.ts`, the one module `cli/` imports. A file imports only
 * its own room and the rooms below it; inside emit/ the same holds for its groups. No import cycle
 * anywhere in generator/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cycles, importEdges, namedBindings, sources, specifiers, type Edge } from "../support/import-graph.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const generator = join(root, "generator");

/** The generator's layers, lowest first; rooms on one layer do not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ["shared"],
  ["pipeline/load"],
  ["pipeline/ir"],
  ["pipeline/plan"],
  ["pipeline/emit"],
  ["pipeline/write"],
  ["pipeline"],
  ["commands/diff", "commands/lint", "commands/check"],
  ["commands/workspace"],
  ["."],
];

/** emit/'s groups, lowest first (paths relative to pipeline/emit/). */
const EMIT_LAYERS: readonly (readonly string[])[] = [
  ["emitted-file.ts"],
  ["data", "publishing", "test-cases"],
  ["targets"],
  ["typescript"],
  ["json-format.ts"],
  ["format.ts"],
  ["worker"],
  ["project-files.ts"],
];

/** The room of a path relative to generator/: `shared`, `pipeline/plan`, `pipeline` (generate.ts), `commands/lint`, `.`. */
export function generatorRoom(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  if (parts[0] === "shared") return "shared";
  return parts.length === 2 ? parts[0]! : `${parts[0]}/${parts[1]}`;
}

/** The group of a path inside emit/ (relative to pipeline/emit/): a folder, or a top-level file itself. */
function emitGroup(path: string): string {
  return path.split("/")[0]!;
}

/** The layer of `room` in `layers`; a room in none is an error (add it to the list and to ARCHITECTURE.md). */
function layerIn(layers: readonly (readonly string[])[], room: string): number {
  const found = layers.findIndex((rooms) => rooms.includes(room));
  if (found < 0) throw new Error(`${room} is in no layer: add it to test/unit/generator-rooms.ts and ARCHITECTURE.md`);
  return found;
}

/** Whether an import from room `a` to room `b` goes against `layers` (upwards, or sideways on one layer). */
function against(layers: readonly (readonly string[])[], a: string, b: string): boolean {
  if (a === b) return false;
  const [la, lb] = [layerIn(layers, a), layerIn(layers, b)];
  return lb >= la;
}

/** The imports of `edges` (paths relative to generator/) that go against the rooms' order, as "from -> to". */
export function againstOrder(edges: readonly Edge[]): string[] {
  const emit = "pipeline/emit/";
  return edges
    .filter(({ from, to }) =>
      from.startsWith(emit) && to.startsWith(emit)
        ? against(EMIT_LAYERS, emitGroup(from.slice(emit.length)), emitGroup(to.slice(emit.length)))
        : against(LAYERS, generatorRoom(from), generatorRoom(to)),
    )
    .map(({ from, to }) => `${from} -> ${to}`);
}

const edges = importEdges(generator);

test("the graph is read: hundreds of imports between the generator's files", () => {
  assert.ok(edges.length > 300, `only ${edges.length} imports found`);
  assert.ok(edges.some((edge) => edge.from === "pipeline/generate.ts" && edge.to === "pipeline/plan/plan-project.ts"));
});

test("generator/ holds index.ts and the three rooms, nothing else; pipeline/ its stages and generate's files", () => {
  const entries = readdirSync(generator, { withFileTypes: true }).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  assert.equal(entries.sort(), ["commands/", "index.ts", "pipeline/", "shared/"]);
  // pipeline/: the five stages, and the files of `generate` (generate.ts and its parts, generate-*.ts).
  const pipeline = readdirSync(join(generator, "pipeline"), { withFileTypes: true });
  const stages = pipeline.filter((e) => e.isDirectory()).map((e) => e.name);
  assert.equal(stages.sort(), ["emit", "ir", "load", "plan", "write"]);
  const files = pipeline.filter((e) => !e.isDirectory()).map((e) => e.name);
  assert.ok(files.includes("generate.ts"));
  assert.equal(
    files.filter((name) => !/^generate(-[a-z-]+)?\.ts$/.test(name)),
    [],
  );
});

test("every import follows the rooms' order: shared < pipeline stages < commands < index.ts", () => {
  assert.equal(againstOrder(edges), []);
});

test("the order check fails on planted imports against it", () => {
  const planted: Edge[] = [
    { from: "shared/diagnostics.ts", to: "pipeline/plan/plan-types.ts" },
    { from: "pipeline/load/load-spec.ts", to: "pipeline/plan/tool-lock.ts" },
    { from: "pipeline/plan/plan-project.ts", to: "commands/diff/format-diff.ts" },
    { from: "commands/lint/lint-server.ts", to: "commands/check/run-check.ts" },
    { from: "commands/check/run-check.ts", to: "index.ts" },
    { from: "pipeline/emit/test-cases/test-cases.ts", to: "pipeline/emit/typescript/tool-file.ts" },
    { from: "pipeline/emit/typescript/tool-file.ts", to: "pipeline/emit/project-files.ts" },
  ];
  assert.equal(
    againstOrder(planted),
    planted.map(({ from, to }) => `${from} -> ${to}`),
  );
  assert.equal(
    againstOrder([
      { from: "commands/workspace/build.ts", to: "commands/lint/lint-server.ts" },
      { from: "pipeline/emit/worker/worker-files.ts", to: "pipeline/emit/typescript/typescript-files.ts" },
      { from: "pipeline/write/write-output.ts", to: "shared/state-files.ts" },
    ]),
    [],
  );
});

test("no import cycle between the generator's files", () => {
  assert.equal(cycles(edges), []);
  assert.equal(
    cycles([
      ...edges,
      { from: "pipeline/plan/changes/contracts.ts", to: "pipeline/plan/plan-types.ts" },
      { from: "pipeline/plan/plan-types.ts", to: "pipeline/plan/changes/diff-tools.ts" },
    ]).length,
    1,
  );
});

/** The basenames that more than one file of `files` has (`index.ts` may repeat: a folder's entry). */
export function repeatedBasenames(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = posix.basename(file);
    if (name !== "index.ts") byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return [...byName.values()].filter((paths) => paths.length > 1).map((paths) => paths.sort().join(" = "));
}

test("no two files of generator/ share a basename (but index.ts): a name says which one it is", () => {
  const files = sources(generator).map((file) => relative(generator, file).split(sep).join("/"));
  assert.ok(files.length > 100, `only ${files.length} files read`);
  assert.equal(repeatedBasenames(files), []);
  assert.equal(repeatedBasenames(["ir/security.ts", "plan/security.ts", "a/index.ts", "b/index.ts"]), [
    "ir/security.ts = plan/security.ts",
  ]);
});

/** The names a module exports by `export { … } from` (generator/index.ts has no other kind of export). */
export function reexported(text: string): string[] {
  return namedBindings(text)
    .map((binding) => binding.local)
    .sort();
}

/** The names `files` (path → text) import from `generator/index.js`. */
export function usedFromEntry(files: ReadonlyMap<string, string>): string[] {
  const used = new Set<string>();
  for (const [file, text] of files)
    for (const binding of namedBindings(text))
      if (posix.normalize(posix.join(posix.dirname(file), binding.from)) === "generator/index.js")
        used.add(binding.name);
  return [...used].sort();
}

test("generator/index.ts exports exactly what cli/ uses", () => {
  const index = readFileSync(join(generator, "index.ts"), "utf8");
  assert.not.match(index, /^export (?!\{|type \{)/m, "index.ts only re-exports");
  const cli = new Map(
    sources(join(root, "cli")).map((file) => [relative(root, file).split(sep).join("/"), readFileSync(file, "utf8")]),
  );
  const exported = reexported(index);
  assert.ok(exported.includes("generate") && exported.length > 20, `${exported.length} exports read`);
  assert.equal(exported, usedFromEntry(cli));
  // A name the CLI stops using, and one it imports that is not exported, both show.
  const planted = new Map([["cli/commands/x.ts", 'import { generate, notExported } from "../../generator/index.js";']]);
  assert.equal(usedFromEntry(planted), ["generate", "notExported"]);
});

test("cli/ imports the generator through generator/index.ts only", () => {
  const cli = join(root, "cli");
  const wrong: string[] = [];
  for (const file of sources(cli)) {
    const from = relative(root, file).split(sep).join("/");
    for (const spec of specifiers(readFileSync(file, "utf8")).filter((s) => s.startsWith("."))) {
      const to = posix.normalize(posix.join(posix.dirname(from), spec));
      if (to.startsWith("generator/") && to !== "generator/index.js") wrong.push(`${from} -> ${to}`);
    }
  }
  assert.equal(wrong, []);
  assert.ok(
    sources(cli).some((file) => readFileSync(file, "utf8").includes('from "../generator/index.js"')),
    "the CLI imports generator/index.ts",
  );
});

test.run();
