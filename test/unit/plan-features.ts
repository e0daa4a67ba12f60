/** Which runtime features a project gets: those asked for, and those its API needs (chooseFeatures). */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  answersBinary,
  chooseFeatures,
  featureCatalog,
  runtimeDependencies,
} from "../../generator/pipeline/plan/features.js";
import type { HttpBinding } from "../../runtime/src/api/types.js";
import { customCode, readPreviousState } from "../../generator/pipeline/plan/previous-state.js";
import { generate } from "../../generator/pipeline/generate.js";
import { AUTO_BUDGET } from "../../runtime/src/features/search/auto.js";

const root = new URL("../../../", import.meta.url).pathname;

test("an API whose operations send forms, files or rarer parameter styles gets feature encodings, a JSON API does not", () => {
  const json = chooseFeatures([], "all", [], { security: false, pagination: false });
  assert.equal(json.features, []);
  const forms = chooseFeatures([], "all", [], { security: false, pagination: false, encodings: true });
  assert.equal(forms.features, ["encodings"]);
  assert.match(forms.added.encodings!, /forms, files, cookies or rarer parameter styles/);
  assert.equal(chooseFeatures(["encodings"], "all", [], { security: false, pagination: false }).features, [
    "encodings",
  ]);
});

test("OpenTelemetry is installed only with feature otel: every other feature together needs none of it", () => {
  const catalog = featureCatalog();
  const others = Object.keys(catalog.features).filter((name) => name !== "otel");
  const everyOther = chooseFeatures(others, "code", [], { security: true, pagination: true }).features;
  assert.not.ok(everyOther.includes("otel"));
  assert.not.ok(runtimeDependencies(everyOther).some((name) => name.startsWith("@opentelemetry/")));
  const withOtel = runtimeDependencies(
    chooseFeatures(["otel"], "all", [], { security: false, pagination: false }).features,
  );
  assert.ok(withOtel.includes("@opentelemetry/api"));
});

test("a spec whose server URL has variables gets feature server-vars", () => {
  const choice = chooseFeatures([], "all", [], { security: false, pagination: false, serverVariables: true });
  assert.equal(choice.features, ["server-vars"]);
  assert.match(choice.added["server-vars"]!, /server URL has variables/);
});

test("legacy client requests: added when custom code calls clientRequest, and with confirm or user-oauth", () => {
  const none = { security: false, pagination: false };
  assert.equal(chooseFeatures([], "all", [], none).features, []);
  const custom = chooseFeatures([], "all", [], { ...none, clientRequests: true });
  assert.equal(custom.features, ["client-requests"]);
  assert.match(custom.added["client-requests"]!, /custom code calls clientRequest/);
  assert.equal(chooseFeatures(["confirm"], "all", [], none).features, ["client-requests", "confirm", "input-requests"]);
  const signIn = chooseFeatures([], "all", [], { ...none, userSignIn: true });
  assert.equal(signIn.features, ["auth", "client-requests", "input-requests", "state", "user-oauth"]);
  const own = chooseFeatures([], "all", [], { ...none, customCode: true });
  assert.equal(own.features, ["custom", "input-requests"]);
  assert.match(own.added.custom!, /has custom code \(src\/custom\/\)/);
});

test("a project whose src/custom/ holds code, or calls clientRequest (in a nested file), is seen by the next generation", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-custom-"));
  try {
    mkdirSync(join(dir, "src", "custom", "tools"), { recursive: true });
    writeFileSync(join(dir, "src", "custom", "README.md"), "notes\n");
    assert.equal(await customCode(join(dir, "src", "custom")), []);
    assert.is((await readPreviousState(dir)).hasCustomCode, undefined);
    writeFileSync(join(dir, "src", "custom", "index.ts"), "export const extension = {};\n");
    assert.equal(await customCode(join(dir, "src", "custom")), ["export const extension = {};\n"]);
    assert.is((await readPreviousState(dir)).hasCustomCode, true);
    assert.is((await readPreviousState(dir)).customCallsClient, undefined);
    writeFileSync(
      join(dir, "src", "custom", "tools", "ask.ts"),
      'export const ask = (ctx) => ctx.clientRequest ("roots/list", {});\n',
    );
    assert.is((await readPreviousState(dir)).customCallsClient, true);
    assert.equal(await customCode(join(dir, "absent")), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a large API gets feature large-data whatever its surface (search brings it too); a small one does not", () => {
  const none = { security: false, pagination: false };
  const listed = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      name: `op${i}`,
      description: "",
      inputSchema: { type: "object" as const },
    }));
  const large = chooseFeatures([], "all", listed(AUTO_BUDGET.tools + 1), none);
  assert.equal(large.features, ["large-data"]);
  assert.match(large.added["large-data"]!, /the API is large \(\d+ operation tools exceed the budget/);
  assert.equal(chooseFeatures([], "auto", listed(AUTO_BUDGET.tools + 1), none).features, ["large-data", "search"]);
  assert.equal(chooseFeatures([], "all", listed(AUTO_BUDGET.tools), none).features, []);
  assert.equal(chooseFeatures(["search"], "all", listed(3), none).features, ["large-data", "search"]);
});

test("an API with a binary response gets feature binary-links (large binaries linked); petstore's JSON does not", async () => {
  const planOf = async (spec: string) => (await generate({ spec: join(root, spec), planOnly: true })).plan;
  const sizing = await planOf("specs/fixtures/result-sizing.yaml");
  assert.ok(sizing.features.includes("binary-links"), sizing.features.join(", "));
  assert.not.ok((await planOf("specs/petstore.yaml")).features.includes("binary-links"));
  const http = (accept: string[]) => ({ response: { accept } }) as unknown as HttpBinding;
  assert.equal(
    [["application/pdf"], ["*/*"], ["application/json; charset=utf-8", "text/csv"], []].map((accept) =>
      answersBinary(http(accept)),
    ),
    [true, true, false, false],
  );
});

test("petstore vendors no large-data reader and writes no offsets files; with the feature it reads one tool by range", async () => {
  const spec = join(root, "specs/petstore.yaml");
  const paths = async (features?: string[]) => {
    const { files } = await generate({ spec, ...(features ? { features } : {}) });
    return new Map(files.map((file) => [file.path, file.content]));
  };
  const plain = await paths();
  assert.not.ok([...plain.keys()].some((path) => path.includes("large-data") || path.endsWith("-offsets.txt")));
  assert.match(plain.get("src/tools/index.ts")!, /dataToolSource\(/);
  assert.not.match(plain.get("src/index.ts")!, /readDataRange/);
  const large = await paths(["large-data"]);
  for (const path of [
    "data/tool-offsets.txt",
    "data/declaration-offsets.txt",
    "src/runtime/features/large-data/ranged-tools.ts",
  ])
    assert.ok(large.has(path), path);
  assert.match(large.get("src/tools/index.ts")!, /rangedToolSource\(/);
  assert.match(large.get("src/index.ts")!, /readDataRange/);
});

test.run();
