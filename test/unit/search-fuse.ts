// Several queries in one search_operations call: reciprocal rank fusion of their rankings.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildSearchIndex, type SearchDocument } from "../../runtime/src/features/search/search-build.js";
import { OperationSearch } from "../../runtime/src/features/search/search-index.js";
import { fuseRankings, RRF_K } from "../../runtime/src/features/search/fuse.js";
import { MAX_QUERIES, searchMany } from "../../runtime/src/features/search/meta-tools.js";
import { SEARCH_LEXICON } from "../../generator/shared/contract.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { featureSurfaces } from "../support/factories.js";
import { info, sampleTools } from "../support/runtime-fixture.js";

const doc = (name: string, method: string, path: string, summary: string, tags: string[]): SearchDocument => ({
  name,
  method,
  path,
  summary,
  description: "",
  tags,
  parameters: [],
});
const index = new OperationSearch(
  buildSearchIndex(
    [
      doc("listBooks", "get", "/books", "List books", ["books"]),
      doc("createBook", "post", "/books", "Create a book", ["books"]),
      doc("listMemberLoans", "get", "/members/{member_id}/loans", "List a member's loans", ["loans"]),
      doc("payFine", "post", "/fines/{fine_id}/pay", "Pay a fine", ["fines"]),
      doc("createMember", "post", "/members", "Create a member", ["members"]),
    ],
    SEARCH_LEXICON,
  ),
);
const names = (queries: string[], limit = 3) => searchMany(index, queries, { limit }).map((hit) => hit.name);

test("fuseRankings: found by several lists beats first in one; ties by best rank, then first list", () => {
  assert.equal(
    fuseRankings(
      [
        ["a", "b"],
        ["c", "b"],
      ],
      3,
    ),
    ["b", "a", "c"],
  );
  assert.equal(fuseRankings([["a"], ["c"]], 2), ["a", "c"]);
  assert.equal(fuseRankings([["x", "y", "z"]], 2), ["x", "y"], "one list: its own order");
  assert.ok(RRF_K > 0);
});

test("searchMany: one query is the plain search; alternatives bring what one query alone misses", () => {
  assert.equal(
    names(["pay a fine"]),
    index.search("pay a fine", { limit: 3 }).map((hit) => hit.name),
  );
  const alone = names(["settle what a member owes"], 5);
  assert.not.ok(alone.includes("payFine"), "the request alone shares no word with payFine");
  assert.ok(names(["settle what a member owes", "POST pay fine"], 2).includes("payFine"));
  const filtered = searchMany(index, ["create", "books"], { limit: 10, allowed: (name) => name !== "createBook" });
  assert.ok(filtered.length > 0);
  assert.not.ok(
    filtered.some((hit) => hit.name === "createBook"),
    "the caller's filter applies to every query",
  );
});

test("search_operations takes queries (merged) and refuses more than MAX_QUERIES", async () => {
  const server = new McpServer({
    info,
    tools: sampleTools(),
    upstream: { baseUrl: "http://127.0.0.1:9" },
    surface: "search",
    surfaces: featureSurfaces(),
  });
  const call = (args: Record<string, unknown>) =>
    server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_operations", arguments: args },
    });
  const merged = (await call({ query: "remove", queries: ["get pet"] })) as { result: Record<string, any> };
  assert.not.ok(merged.result.isError, JSON.stringify(merged));
  const found = merged.result.structuredContent.results.map((r: { name: string }) => r.name);
  assert.ok(found.includes("deletePet") && found.includes("getPet"), found.join());
  const tooMany = (await call({ queries: Array.from({ length: MAX_QUERIES + 1 }, () => "pets") })) as {
    result?: Record<string, any>;
    error?: unknown;
  };
  assert.ok(tooMany.error !== undefined || tooMany.result?.isError, JSON.stringify(tooMany));
});

test.run();
