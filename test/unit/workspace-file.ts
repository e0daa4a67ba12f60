/**
 * The workspace file: defaults applied and paths resolved for a good file; for a bad one, every
 * problem with the entry's path in the file, line and column, and no workspace at all.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { parse } from "yaml";
import {
  formatWorkspaceDiagnostic,
  loadWorkspace,
  WorkspaceError,
  type WorkspaceDiagnostic,
} from "../../generator/commands/workspace/workspace-file.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mcp-gen-workspace-file-"));

/** Writes `text` as a workspace file and loads it; the problems (as printed) when it is refused. */
function load(text: string): ReturnType<typeof loadWorkspace> | string[] {
  const file = join(dir, `ws-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  try {
    return loadWorkspace(file);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    return error.diagnostics.map((d: WorkspaceDiagnostic) => formatWorkspaceDiagnostic({ ...d, file: "ws.yaml" }));
  }
}

test("a good file: defaults apply unless the entry sets its own, names get the scope, paths resolve from the file's folder", () => {
  const workspace = load(`defaults:
  scope: "@acme"
  license: MIT
  repository: https://github.com/acme/fleet
  envPrefix: ACME_
servers:
  - spec: specs/a.yaml
    out: servers/a
    name: a-mcp
  - spec: specs/b.json
    out: servers/b
    name: "@other/b-mcp"
    license: Apache-2.0
    envPrefix: B_
    surface: search
    includeTags: [pets]
    readOnly: true
    auth: header:X-Api-Key
`);
  assert.ok(!Array.isArray(workspace), JSON.stringify(workspace));
  if (Array.isArray(workspace)) return;
  assert.is(workspace.dir, dir);
  const [a, b] = workspace.servers;
  assert.is(a!.name, "@acme/a-mcp");
  assert.is(a!.spec, join(dir, "specs/a.yaml"));
  assert.is(a!.outRelative, "servers/a");
  assert.is(a!.surface, "auto");
  assert.equal(a!.options, {
    packageName: "@acme/a-mcp",
    allowRemote: false,
    repository: "https://github.com/acme/fleet",
    license: "MIT",
    envPrefix: "ACME_",
  });
  assert.is(b!.name, "@other/b-mcp", "a scoped name keeps its scope");
  assert.equal(b!.options, {
    packageName: "@other/b-mcp",
    allowRemote: false,
    repository: "https://github.com/acme/fleet",
    license: "Apache-2.0",
    auth: "header:X-Api-Key",
    envPrefix: "B_",
    filter: { includeTags: ["pets"], readOnly: true },
    defaultSurface: "search",
  });
});

test("schema problems: each with the entry's path, line and column; nothing is loaded", () => {
  const problems = load(`servers:
  - spec: a.yaml
    out: servers/a
    name: a-mcp
    colour: red
  - spec: b.yaml
    out: servers/b
  - spec: c.yaml
    out: servers/c
    name: c-mcp
    surface: everything
    envPrefix: lower_
`);
  assert.equal(problems, [
    'ws.yaml:5:5 error MG303 servers[0].colour: unknown option "colour"',
    'ws.yaml:6:5 error MG303 servers[1]: "name" is required',
    'ws.yaml:11:14 error MG303 servers[2].surface: must be one of "all", "search", "code", "auto"',
    'ws.yaml:12:16 error MG303 servers[2].envPrefix: "lower_" does not match ^[A-Z][A-Z0-9_]*$',
  ]);
});

test("what the schema cannot say: duplicate names and folders, folders outside the workspace, URLs without allowRemote, npm names", () => {
  const problems = load(`defaults:
  scope: "@acme"
servers:
  - spec: a.yaml
    out: servers/a
    name: a-mcp
  - spec: https://example.com/b.yaml
    out: servers/a/inner
    name: a-mcp
  - spec: c.yaml
    out: ../c
    name: Capitals
  - spec: https://example.com/d.yaml
    out: servers/d
    name: d-mcp
    allowRemote: true
`);
  assert.equal(problems, [
    "ws.yaml:7:11 error MG305 servers[1].spec: the spec https://example.com/b.yaml is a URL: set allowRemote: true (on the entry or in defaults) to read specs from the network",
    "ws.yaml:8:10 error MG304 servers[1].out: out servers/a/inner overlaps the folder of servers[0]",
    "ws.yaml:9:11 error MG304 servers[1].name: the name @acme/a-mcp is also the name of servers[0]",
    "ws.yaml:11:10 error MG306 servers[2].out: out must be a folder inside the workspace folder (the npm workspace root), not ../c",
    'ws.yaml:12:11 error MG305 servers[2].name: "@acme/Capitals" is not a valid npm package name (lower case letters, digits, - . _ ~, an optional @scope/)',
  ]);
});

test("YAML syntax errors and a missing file are diagnostics too", () => {
  const syntax = load("servers:\n  - spec: a.yaml\n    out: [unclosed\n");
  assert.ok(Array.isArray(syntax) && syntax.length >= 1, JSON.stringify(syntax));
  assert.match((syntax as string[])[0]!, /^ws\.yaml:\d+:\d+ error MG302: YAML: /);
  assert.throws(
    () => loadWorkspace(join(dir, "absent.yaml")),
    (error: unknown) =>
      error instanceof WorkspaceError &&
      error.diagnostics[0]!.code === "MG301" &&
      /no workspace file/.test(error.diagnostics[0]!.message),
  );
});

test("the published schema is a valid JSON Schema, and the example fleet's file follows it", () => {
  const schema = JSON.parse(readFileSync(join(root, "schemas/mcp-gen.workspace.schema.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const ajv = new Ajv({ strict: true, allErrors: true });
  const validate = ajv.compile(schema);
  const example = parse(readFileSync(join(root, "examples/fleet/mcp-gen.workspace.yaml"), "utf8")) as unknown;
  assert.ok(validate(example), JSON.stringify(validate.errors));
  assert.not.ok(validate({ servers: [] }), "a workspace has at least one server");
  const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };
  assert.ok(packageJson.files.includes("schemas"), "the schema is published in the package");
});

test.run();
