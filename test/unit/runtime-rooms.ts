/**
 * The runtime's rooms (runtime/src/README.md): each folder is a layer, and a file imports only its
 * own room and the rooms below it. The core never imports a feature; a feature imports the core
 * and the features it requires (runtime/features.json). No import cycle anywhere, and every package
 * a file imports is one its part declares, so a server without a feature installs nothing of it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cycles, importEdges, packageImports, roomOf, sources, type Edge } from "../support/import-graph.js";
import { FEATURES } from "../../runtime/src/cli/features.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const src = join(root, "runtime", "src");
const catalog = JSON.parse(readFileSync(join(root, "runtime", "features.json"), "utf8")) as {
  coreDependencies: string[];
  features: Record<string, { dependencies: string[]; buildDependencies?: string[]; requires: string[] }>;
};
const runtimePackage = JSON.parse(readFileSync(join(root, "runtime", "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

/** The core's layers, lowest first; rooms on one layer do not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ["protocol"],
  ["api"],
  ["upstream", "data", "state"],
  ["server"],
  ["transport"],
  ["cli"],
];

/** The layer of a room: core rooms by LAYERS, the index above them, features above all. */
function layerOf(room: string): number {
  const found = LAYERS.findIndex((rooms) => rooms.includes(room));
  if (found >= 0) return found;
  if (room === ".") return LAYERS.length;
  if (room.startsWith("features/")) return LAYERS.length + 1;
  throw new Error(`room ${room} is in no layer: add it to LAYERS and to runtime/src/README.md`);
}

/** The imports of `edges` that go against the rooms' order (each as "from -> to"). */
export function againstOrder(edges: readonly Edge[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const a = roomOf(from);
      const b = roomOf(to);
      if (a === b) return false;
      if (a.startsWith("features/") && b.startsWith("features/"))
        return !catalog.features[a.slice(9)]?.requires.includes(b.slice(9));
      if (b.startsWith("features/") || b === ".") return true;
      const [la, lb] = [layerOf(a), layerOf(b)];
      return lb > la || (lb === la && a !== b);
    })
    .map(({ from, to }) => `${from} -> ${to}`);
}

const edges = importEdges(src);

test("the graph is read: hundreds of imports between the runtime's files", () => {
  assert.ok(edges.length > 200, `only ${edges.length} imports found`);
  assert.ok(edges.some((edge) => edge.from === "cli/main.ts" && edge.to === "server/server.ts"));
});

test("runtime/src has no file at its top level but its README (every module is in a room)", () => {
  const top = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isFile());
  assert.equal(
    top.map((entry) => entry.name),
    ["README.md"],
  );
});

test("every import follows the rooms' order: none from a lower room to a higher one, none from the core to a feature", () => {
  assert.equal(againstOrder(edges), []);
});

test("the order check fails on a planted import against it (core to feature, lower to higher, feature to feature)", () => {
  const planted: Edge[] = [
    { from: "protocol/jsonrpc.ts", to: "server/server.ts" },
    { from: "server/server.ts", to: "features/search/meta-tools.ts" },
    { from: "upstream/upstream.ts", to: "data/tool-data.ts" },
    { from: "features/search/meta-tools.ts", to: "features/code/code-host.ts" },
    { from: "server/server.ts", to: "index.ts" },
  ];
  assert.equal(
    againstOrder(planted),
    planted.map(({ from, to }) => `${from} -> ${to}`),
  );
  assert.equal(againstOrder([{ from: "features/code/index.ts", to: "features/search/meta-tools.ts" }]), []);
});

/** The basenames (other than index.ts) that more than one of `paths` has, each with its paths. */
export function sharedBasenames(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (name !== "index.ts") byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  return [...byName].filter(([, found]) => found.length > 1).map(([name, found]) => `${name}: ${found.join(", ")}`);
}

test("no two files of runtime/src share a basename but index.ts (slot files and features' files say which they are)", () => {
  const paths = sources(src).map((file) =>
    file
      .slice(src.length + 1)
      .split("\\")
      .join("/"),
  );
  assert.ok(paths.length > 100, `only ${paths.length} files found`);
  assert.equal(sharedBasenames(paths), []);
  assert.equal(sharedBasenames([...paths, "features/tasks/tasks-slot.ts", "features/search/index.ts"]), [
    "tasks-slot.ts: server/tasks-slot.ts, features/tasks/tasks-slot.ts",
  ]);
});

test("no import cycle between the runtime's files", () => {
  assert.equal(cycles(edges), []);
  assert.equal(
    cycles([
      ...edges,
      { from: "api/types.ts", to: "api/mcp-types.ts" },
      { from: "api/mcp-types.ts", to: "api/types.ts" },
    ]).length,
    1,
  );
});

test("the features: one folder each with an index.ts, named as runtime/features.json and the runtime's FEATURES list", () => {
  const folders = readdirSync(join(src, "features"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  assert.equal(folders, Object.keys(catalog.features).sort());
  assert.equal([...FEATURES].sort(), folders);
  for (const name of folders) {
    const index = readFileSync(join(src, "features", name, "index.ts"), "utf8");
    assert.match(index, new RegExp(`name: "${name}"`), `features/${name}/index.ts names its feature`);
    for (const needed of catalog.features[name]!.requires)
      assert.ok(folders.includes(needed), `${name} requires ${needed}`);
  }
});

test("each part imports only the packages it declares: the core its coreDependencies, a feature also its own", () => {
  const declared = new Set(Object.keys(runtimePackage.dependencies));
  const wrong: string[] = [];
  for (const file of sources(src)) {
    const path = file
      .slice(src.length + 1)
      .split("\\")
      .join("/");
    const room = roomOf(path);
    const feature = room.startsWith("features/") ? room.slice(9) : undefined;
    const allowed = new Set([
      ...catalog.coreDependencies,
      ...(feature
        ? [feature, ...catalog.features[feature]!.requires].flatMap((name) => [
            ...catalog.features[name]!.dependencies,
            ...(catalog.features[name]!.buildDependencies ?? []),
          ])
        : []),
    ]);
    for (const name of packageImports(file)) if (!allowed.has(name)) wrong.push(`${path}: ${name}`);
  }
  assert.equal(wrong, []);
  const featurePackages = Object.values(catalog.features).flatMap((f) => [
    ...f.dependencies,
    ...(f.buildDependencies ?? []),
  ]);
  for (const name of [...catalog.coreDependencies, ...featurePackages])
    assert.ok(declared.has(name), `${name} is pinned in runtime/package.json`);
});

test.run();
