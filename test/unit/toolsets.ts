import { test } from "uvu";
import * as assert from "uvu/assert";
import { isFiltering, operationFilter } from "../../runtime/src/features/toolsets/filter.js";
import { listOption } from "../../runtime/src/cli/settings.js";

const ops = [
  { name: "repos/list-for-org", method: "get", path: "/orgs/{org}/repos", tags: ["repos"] },
  { name: "repos/delete", method: "delete", path: "/repos/{owner}/{repo}", tags: ["repos"] },
  { name: "issues/create", method: "post", path: "/repos/{owner}/{repo}/issues", tags: ["Issues"] },
  { name: "meta/root", method: "get", path: "/" },
];
const kept = (filter: Parameters<typeof operationFilter>[0]) =>
  ops.filter(operationFilter(filter)).map((op) => op.name);

test("no rule keeps everything", () => {
  assert.not.ok(isFiltering({}));
  assert.not.ok(isFiltering({ includeTags: [], readOnly: false }));
  assert.is(kept({}).length, 4);
});

test("tags: include (any, case-insensitive) and exclude", () => {
  assert.ok(isFiltering({ includeTags: ["issues"] }));
  assert.equal(kept({ includeTags: ["issues"] }), ["issues/create"]);
  assert.equal(kept({ includeTags: ["repos", "ISSUES"] }), ["repos/list-for-org", "repos/delete", "issues/create"]);
  assert.equal(kept({ excludeTags: ["repos"] }), ["issues/create", "meta/root"]);
});

test("operation globs on tool names and on METHOD /path", () => {
  assert.equal(kept({ includeOperations: ["repos/*"] }), ["repos/list-for-org", "repos/delete"]);
  assert.equal(kept({ includeOperations: ["GET /orgs/*"] }), ["repos/list-for-org"]);
  assert.equal(kept({ includeOperations: ["get /orgs/*"] }), ["repos/list-for-org"], "the method in any case");
  assert.equal(kept({ excludeOperations: ["DELETE /*", "meta/?oot"] }), ["repos/list-for-org", "issues/create"]);
  assert.equal(kept({ includeOperations: ["repos/list.for.org"] }), [], "dots are literal, not regex wildcards");
});

test("read-only keeps GET, HEAD, OPTIONS; rules combine", () => {
  assert.equal(kept({ readOnly: true }), ["repos/list-for-org", "meta/root"]);
  assert.equal(kept({ readOnly: true, includeTags: ["repos"] }), ["repos/list-for-org"]);
});

test("listOption splits comma lists", () => {
  assert.equal(listOption(" a, b ,,c "), ["a", "b", "c"]);
  assert.equal(listOption(undefined), []);
});

test.run();
