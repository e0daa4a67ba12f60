import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { planProject } from "../../generator/pipeline/plan/plan-project.js";
import { buildToolLock, operationKey, parseToolLock } from "../../generator/pipeline/plan/tool-lock.js";
import { api, operation } from "../support/factories.js";

const names = (ops: ReturnType<typeof operation>[], lock?: ReturnType<typeof buildToolLock>) =>
  planProject(api(ops), { ...(lock ? { toolLock: lock } : {}) }, new DiagnosticBag()).tools.map((t) => t.name);

const op = (method: "get" | "post", path: string, operationId?: string) =>
  operation({ method, path, pointer: `#/paths/${path}/${method}`, ...(operationId ? { operationId } : {}) });

test("operationKey blanks path parameter names", () => {
  assert.is(operationKey("get", "/pets/{petId}/photos/{n}"), "GET /pets/{}/photos/{}");
});

test("locked names survive reordering, new collisions and renamed operationIds", () => {
  const v1 = [op("get", "/a", "thing"), op("get", "/b", "thing")];
  const firstNames = names(v1);
  assert.equal(firstNames, ["thing", "thing_2"]);
  const lock = buildToolLock(planProject(api(v1), {}, new DiagnosticBag()).tools);
  // Reordered: without the lock the names would swap.
  assert.equal(names([v1[1]!, v1[0]!]), ["thing", "thing_2"]);
  assert.equal(names([v1[1]!, v1[0]!], lock), ["thing_2", "thing"]);
  // A newcomer that wants a taken name gets a suffix; the existing tools keep theirs.
  assert.equal(names([op("get", "/c", "thing"), ...v1], lock), ["thing_3", "thing", "thing_2"]);
  // A renamed operationId keeps its tool name (matched by route); a moved operation too (by operationId).
  const unique = buildToolLock(
    planProject(api([op("get", "/a", "alpha"), op("get", "/b", "beta")]), {}, new DiagnosticBag()).tools,
  );
  assert.equal(names([op("get", "/moved", "beta"), op("get", "/a", "renamedAlpha")], unique), ["beta", "alpha"]);
});

test("a hand-edited lock renames a tool; invalid entries are dropped", () => {
  const lock = parseToolLock({
    lockVersion: 1,
    tools: [
      { operation: "GET /a", tool: "chosen_name" },
      { operation: "GET /b", tool: "not valid!" },
    ],
  })!;
  assert.equal(names([op("get", "/a", "x"), op("get", "/b", "y")], lock), ["chosen_name", "y"]);
  assert.is(parseToolLock({ lockVersion: 2, tools: [] }), undefined);
});

test("a dotted name from an older lock is kept; new operations get no dots", () => {
  const lock = parseToolLock({
    lockVersion: 1,
    tools: [
      { operation: "GET /a", operationId: "repos.get", tool: "repos.get" },
      { operation: "GET /x", tool: ".bad" },
    ],
  });
  assert.equal(
    lock?.tools.map((t) => t.tool),
    ["repos.get"],
  );
  assert.equal(names([op("get", "/a", "repos.get"), op("get", "/b", "repos.list")], lock), ["repos.get", "repos_list"]);
});

test.run();
