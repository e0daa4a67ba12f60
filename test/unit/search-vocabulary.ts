// The API's own names for its operations, carried from the spec through the IR and the plan into the
// search index: tags' `x-displayName` and an operation's short `x-` titles. (Tags' descriptions were
// indexed too and measured: they lowered recall, see docs/benchmarks/search.md; they are not.)
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../../generator/pipeline/generate.js";
import { workerInput } from "../../generator/pipeline/emit/project-files.js";
import { SEARCH_LEXICON } from "../../generator/shared/contract.js";
import { buildSearchIndex, type SearchDocument } from "../../runtime/src/features/search/search-build.js";
import { OperationSearch } from "../../runtime/src/features/search/search-index.js";
import { stem } from "../../runtime/src/features/search/search-text.js";

const ok = { "200": { description: "OK" } };
/** A small invented lending library whose tags and extensions name things its paths do not. */
const SPEC = {
  openapi: "3.0.3",
  info: { title: "Library", version: "1.0.0" },
  tags: [
    {
      name: "holds",
      "x-displayName": "Reservations",
      description: "A hold keeps a book aside for a member. See the permission notes before calling these.",
    },
    { name: "shelves", description: "Shelves group the books of one room." },
  ],
  paths: {
    "/holds": {
      post: { operationId: "createHold", summary: "Create a hold", tags: ["holds"], responses: ok },
      get: { operationId: "listHolds", summary: "List holds", tags: ["holds"], responses: ok },
    },
    "/shelves/{shelf_id}/sort": {
      post: {
        operationId: "sortShelf",
        summary: "Sort a shelf",
        tags: ["shelves"],
        "x-cli-action": "tidy",
        "x-displayName": "Tidy up a shelf",
        "x-internal-note": "never indexed: its key names no title",
        "x-long-name": "an x- title longer than eighty characters is prose, not a title, and is left out of it",
        parameters: [{ name: "shelf_id", in: "path", required: true, schema: { type: "string" } }],
        responses: ok,
      },
    },
    "/members": { get: { operationId: "listMembers", summary: "List members", responses: ok } },
  },
};

/** The plan of SPEC, with the search feature. */
async function planOf(spec: object) {
  const file = join(mkdtempSync(join(tmpdir(), "search-vocabulary-")), "openapi.json");
  writeFileSync(file, JSON.stringify(spec));
  return (await generate({ spec: file, planOnly: true, features: ["search"] })).plan;
}

test("tags' display names and an operation's x- titles reach the plan", async () => {
  const tools = new Map((await planOf(SPEC)).tools.map((tool) => [tool.operationId, tool]));
  assert.equal(tools.get("createHold")!.titles, ["Reservations"]);
  assert.equal(tools.get("sortShelf")!.titles, ["tidy", "Tidy up a shelf"]);
  assert.is(tools.get("listMembers")!.titles, undefined);
});

test("the search index has them, with their source, and finds an operation by them", async () => {
  const documents = workerInput(await planOf(SPEC), false).searchDocuments as SearchDocument[];
  const data = buildSearchIndex(documents, SEARCH_LEXICON);
  const search = new OperationSearch(data);
  const first = (query: string) => search.search(query, { limit: 1 })[0]?.name;
  // Bit 256: titles (x-displayName, x- titles); a tag's description is not indexed.
  assert.is(data.sources![stem("reservations")], 256);
  assert.is(data.sources![stem("tidy")], 256);
  assert.is(data.sources![stem("aside")], undefined);
  assert.is(data.sources![stem("internal")], undefined);
  assert.is(data.sources![stem("prose")], undefined);
  assert.ok(first("tidy the shelf")?.startsWith("sort"));
  assert.ok(first("add a reservation")?.startsWith("create"));
  // Without them, neither request names the operation.
  const bare = new OperationSearch(
    buildSearchIndex(
      documents.map(({ titles: _t, ...rest }) => rest),
      SEARCH_LEXICON,
    ),
  );
  assert.is(bare.search("tidy", { limit: 1 }).length, 0);
  assert.is(bare.search("reservation", { limit: 1 }).length, 0);
});

test.run();
