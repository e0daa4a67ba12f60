/**
 * Issue 50's "done when" on a real API: an Overlay 1.0 document renames a GitHub tool, rewrites two
 * descriptions, hides a tag and marks an operation destructive; `tools/list` (as the server builds
 * it from the generated data/tools.json) changes exactly so; regenerating from a next version of
 * the spec keeps all of it without naming the overlay again; `mcp-gen diff` reports the rename.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs the pinned @octokit/openapi
 * package installed with npm into .cache/corpus; generates the issues and gists tags of GitHub.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { diffSpecs } from "../../generator/commands/diff/diff-specs.js";
import { loadTools } from "../../runtime/src/data/tool-data.js";
import { listedTool } from "../../runtime/src/server/tool-catalog.js";
import type { ListedTool } from "../../runtime/src/api/mcp-types.js";
import { installPackage, PACKAGES } from "../corpus/sources.js";
import { repoRoot } from "../support/e2e.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-overlay-github-"));
const spec = join(installPackage(repoRoot, PACKAGES.github), "generated", "api.github.com.json");
const out = join(work, "server");
const overlayFile = join(work, "github-overlay.yaml");
const filter = { includeTags: ["issues", "gists"] };

const OVERLAY = `overlay: 1.0.0
info: { title: Our GitHub tools, version: "1" }
actions:
  - target: $.paths.*[?@.operationId == 'issues/create']
    update: { x-mcp-name: open_issue }
  - target: $.paths.*[?@.operationId == 'issues/list-for-repo']
    update: { x-mcp-description: "Issues and pull requests of one repository, newest first; filter by state, labels or assignee." }
  - target: $.paths.*[?@.operationId == 'issues/get']
    update: { x-mcp-description: "One issue or pull request of a repository, by its number." }
  - target: $.tags[?@.name == 'gists']
    update: { x-mcp-hidden: true }
  - target: $.paths.*[?@.operationId == 'issues/create-comment']
    update: { x-mcp-annotations: { destructive: true } }
`;

/** tools/list as the server builds it from a generated project's data files, by name. */
function servedList(dir: string): Map<string, ListedTool> {
  const json = (file: string) => JSON.parse(readFileSync(join(dir, "data", file), "utf8")) as never;
  const tools = loadTools(json("tools.json"), json("definitions.json"));
  return new Map(tools.map((tool) => [tool.name, listedTool(tool)]));
}

test.after(() => rmSync(work, { recursive: true, force: true }));

test("the overlay changes GitHub's tools/list exactly so, and a next version of the spec keeps it", async () => {
  writeFileSync(overlayFile, OVERLAY);
  const plain = await generate({ spec, outDir: join(work, "plain"), filter });
  const before = servedList(join(work, "plain"));
  const nameOf = (operationId: string) => plain.plan.tools.find((t) => t.operationId === operationId)!.name;
  const gists = plain.plan.tools.filter((t) => t.tags.includes("gists")).map((t) => t.name);
  assert.ok(gists.length > 10, "the filter keeps the gists tag");

  const overlaid = await generate({ spec, outDir: out, filter, overlays: [overlayFile] });
  assert.equal(
    overlaid.diagnostics.filter((d) => ["MG120", "MG121", "MG122"].includes(d.code)),
    [],
  );
  const after = servedList(out);

  // Every change, one by one, and nothing else.
  const expected = new Map(before);
  for (const name of gists) expected.delete(name);
  const created = expected.get(nameOf("issues/create"))!;
  expected.delete(nameOf("issues/create"));
  expected.set("open_issue", { ...created, name: "open_issue" });
  const described = (operationId: string, description: string) =>
    expected.set(nameOf(operationId), { ...expected.get(nameOf(operationId))!, description });
  described(
    "issues/list-for-repo",
    "Issues and pull requests of one repository, newest first; filter by state, labels or assignee.",
  );
  described("issues/get", "One issue or pull request of a repository, by its number.");
  const comment = expected.get(nameOf("issues/create-comment"))!;
  expected.set(nameOf("issues/create-comment"), {
    ...comment,
    annotations: { ...comment.annotations, destructiveHint: true },
  });
  assert.equal([...after.keys()].sort(), [...expected.keys()].sort());
  for (const [name, tool] of expected) assert.equal(after.get(name), tool, name);

  // A next version of the spec: a new operation, a version bump; the overlay is not named again.
  const next = JSON.parse(readFileSync(spec, "utf8")) as Record<string, any>;
  next.info.version = `${next.info.version}-next`;
  next.paths["/repos/{owner}/{repo}/issues/{issue_number}/pin"] = {
    put: {
      operationId: "issues/pin",
      tags: ["issues"],
      summary: "Pin an issue",
      parameters: [
        { name: "owner", in: "path", required: true, schema: { type: "string" } },
        { name: "repo", in: "path", required: true, schema: { type: "string" } },
        { name: "issue_number", in: "path", required: true, schema: { type: "integer" } },
      ],
      responses: { "204": { description: "Pinned" } },
    },
  };
  const nextSpec = join(work, "github-next.json");
  writeFileSync(nextSpec, JSON.stringify(next));
  const regenerated = await generate({ spec: nextSpec, outDir: out, filter });
  const again = servedList(out);
  assert.equal(regenerated.diff!.added, ["issues_pin"]);
  assert.ok(again.has("issues_pin"));
  assert.equal(regenerated.diff!.removed, []);
  for (const [name, tool] of expected) assert.equal(again.get(name), tool, `${name} after the next version`);
  assert.is(again.size, expected.size + 1);
});

test("mcp-gen diff reports the overlay's rename as a rename", async () => {
  const diff = await diffSpecs({
    old: spec,
    new: spec,
    allowRemote: false,
    keepNames: false,
    newOverlays: [overlayFile],
  });
  const renamed = diff.changed.filter((change) => change.previousName !== undefined);
  assert.equal(
    renamed.map((change) => change.name),
    ["open_issue"],
  );
  assert.ok(diff.removed.length > 10, "the hidden gists tools are removed");
  assert.is(diff.bump, "major");
});

test.run();
