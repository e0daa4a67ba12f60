import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { planProject, toolModuleNames } from "../../generator/pipeline/plan/plan-project.js";
import { printTypeScript } from "../../generator/pipeline/emit/typescript/typescript-files.js";
import { toolTypeSource } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { api, operation } from "../support/factories.js";

test("tool types go to one module per tag, else per first path segment; names are unique and kebab-case", () => {
  assert.equal(
    toolModuleNames([
      { tags: ["Pets"], path: "/pets" },
      { tags: ["Store Front", "pets"], path: "/store" },
      { tags: [], path: "/{tenant}/orders/{id}" },
      { tags: ["pets"], path: "/x" }, // another tag than "Pets" with the same file name: a variant
      { tags: ["Pets"], path: "/pets/{id}" },
      { tags: ["index"], path: "/i" }, // src/tools/index.ts is the tools index
      { tags: ["!!!"], path: "/" },
      { tags: [], path: "/" },
    ]),
    ["pets", "store-front", "orders", "pets_2", "pets", "index_2", "operations", "operations_2"],
  );
});

test("a module declares the types of all its tools, and the index imports and re-exports each module once", () => {
  const ir = api([
    operation({
      pointer: "#/paths/~1pets/get",
      method: "get",
      path: "/pets",
      operationId: "listPets",
      tags: ["pets"],
    }),
    operation({
      pointer: "#/paths/~1store/get",
      method: "get",
      path: "/store",
      operationId: "getInventory",
      tags: ["store"],
    }),
    operation({
      pointer: "#/paths/~1pets/post",
      method: "post",
      path: "/pets",
      operationId: "createPet",
      tags: ["pets"],
    }),
  ]);
  const plan = planProject(ir, {}, new DiagnosticBag());
  assert.equal(
    plan.tools.map((tool) => [tool.name, tool.fileName]),
    [
      ["listPets", "pets"],
      ["getInventory", "store"],
      ["createPet", "pets"],
    ],
  );
  const printed = printTypeScript({
    tools: plan.tools.map(toolTypeSource),
    types: plan.types,
    serverInfo: { name: "t", version: "1.0.0" } as never,
    apiDocument: false,
    features: ["custom"],
  });
  const paths = printed.files.map((file) => file.path).filter((path) => path.startsWith("src/tools/"));
  assert.equal(paths, ["src/tools/pets.ts", "src/tools/store.ts", "src/tools/index.ts"]);
  const pets = printed.files.find((file) => file.path === "src/tools/pets.ts")!.content;
  assert.match(pets, /export interface ListPetsInput/);
  assert.match(pets, /export interface CreatePetInput/);
  assert.not.match(pets, /GetInventory/);
  const index = printed.files.find((file) => file.path === "src/tools/index.ts")!.content;
  assert.is(index.match(/^import type \{[^}]*\} from "\.\/pets\.js"/gm)?.length, 1, index);
  // Re-exported whole (the module exports only its tools' types), not listed a second time.
  assert.is(index.match(/^export type \* from "\.\/pets\.js";$/gm)?.length, 1, index);
  assert.not.match(index, /^export type \{/m);
  assert.match(
    index,
    /import type \{ ListPetsInput, ListPetsOutput, CreatePetInput, CreatePetOutput \} from "\.\/pets\.js"/,
  );
});

test.run();
