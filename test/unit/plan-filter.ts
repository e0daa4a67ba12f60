import { test } from "uvu";
import * as assert from "uvu/assert";
import { Codes, DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { planProject } from "../../generator/pipeline/plan/plan-project.js";
import { api, operation } from "../support/factories.js";

const ops = () => [
  operation({ pointer: "#/paths/~1pets/get", method: "get", path: "/pets", operationId: "listPets", tags: ["pets"] }),
  operation({
    pointer: "#/paths/~1pets/post",
    method: "post",
    path: "/pets",
    operationId: "createPet",
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
    pointer: "#/paths/~1pets~1{id}/delete",
    method: "delete",
    path: "/pets/{id}",
    operationId: "deletePet",
    tags: ["pets"],
  }),
];
const names = (filter: Parameters<typeof planProject>[1]["filter"], bag = new DiagnosticBag()) =>
  planProject(api(ops()), { filter }, bag).tools.map((t) => t.name);

test("generation filters keep only the matching operations, with the names a full generation gives", () => {
  assert.equal(names(undefined), ["listPets", "createPet", "getInventory", "deletePet"]);
  assert.equal(names({ includeTags: ["PETS"] }), ["listPets", "createPet", "deletePet"]);
  assert.equal(names({ excludeTags: ["pets"] }), ["getInventory"]);
  assert.equal(names({ readOnly: true }), ["listPets", "getInventory"]);
  assert.equal(names({ includeOperations: ["*Pet*"], excludeOperations: ["DELETE /pets/*"] }), [
    "listPets",
    "createPet",
  ]);
});

test("a filter is reported once (MG115, info); a filter that leaves nothing is MG102", () => {
  const bag = new DiagnosticBag();
  names({ readOnly: true }, bag);
  assert.equal(
    bag.items.filter((d) => d.code === Codes.operationSkipped).map((d) => d.severity),
    ["info"],
  );
  const empty = new DiagnosticBag();
  names({ includeTags: ["nothing"] }, empty);
  assert.ok(empty.items.some((d) => d.code === Codes.noOperations && d.severity === "error"));
});

test("the default surface is planned only when not auto", () => {
  assert.is(planProject(api(ops()), { defaultSurface: "search" }, new DiagnosticBag()).defaultSurface, "search");
  assert.is(planProject(api(ops()), { defaultSurface: "auto" }, new DiagnosticBag()).defaultSurface, undefined);
});

test.run();
