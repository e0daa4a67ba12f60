// The operation search on a small invented API (a lending library): the lexicon as data, the one
// query analysis, the vocabulary taken from the API's own document, and the shortlist's shape.
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  buildSearchIndex,
  searchDocument,
  type SearchDocument,
} from "../../runtime/src/features/search/search-build.js";
import { MAX_QUERY_CHARS, OperationSearch } from "../../runtime/src/features/search/search-index.js";
import { decodePostings, encodePostings } from "../../runtime/src/features/search/postings.js";
import { Lexicon, requestWords, stem, words } from "../../runtime/src/features/search/search-text.js";
import { searchIndexJson } from "../../generator/pipeline/emit/data/search-index.js";
import { SEARCH_LEXICON } from "../../generator/shared/contract.js";
import { SYNTHETIC_QUERIES, syntheticSearchDocuments } from "../bench/synthetic-search.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";

const doc = (
  name: string,
  method: string,
  path: string,
  summary: string,
  tags: string[],
  extra: Partial<SearchDocument> = {},
): SearchDocument => ({ name, method, path, summary, description: "", tags, parameters: [], ...extra });

const DOCS: SearchDocument[] = [
  doc("listBooks", "get", "/books", "List books", ["books"], {
    parameters: ["genre", "status"],
    values: ["available", "lent"],
  }),
  doc("createBook", "post", "/books", "Create a book", ["books"], { required: ["title"] }),
  doc("getBook", "get", "/books/{book_id}", "Get a book", ["books"], { required: ["book_id"] }),
  doc("deleteBook", "delete", "/books/{book_id}", "Delete a book", ["books"], { required: ["book_id"] }),
  doc("updateBook", "patch", "/books/{book_id}", "Update a book", ["books"], { required: ["book_id"] }),
  doc("bookAction", "post", "/books/{book_id}/actions", "Perform an action on a book", ["books"], {
    parameters: ["type"],
    values: ["reserve", "renew"],
  }),
  doc("listMemberLoans", "get", "/members/{member_id}/loans", "List a member's loans", ["loans"]),
  doc("createMember", "post", "/members", "Create a member", ["members"]),
  doc("searchMembers", "get", "/members/search", "Search members", ["members"]),
  doc("payFine", "post", "/fines/{fine_id}/pay", "Pay a fine", ["fines"]),
  doc("getCurrentLibrarian", "get", "/me", "Get the current librarian", ["me"]),
];
const index = new OperationSearch(buildSearchIndex(DOCS, SEARCH_LEXICON));
const top = (query: string, options: { tag?: string; limit?: number } = {}) =>
  index.search(query, { limit: 3, ...options }).map((hit) => hit.name);

test("words and stem: identifiers split, plurals and endings fold", () => {
  assert.equal(words("listForOrg book_loans/{member-id} APIs"), [
    "list",
    "for",
    "org",
    "book",
    "loans",
    "member",
    "id",
    "apis",
  ]);
  assert.equal(["books", "libraries", "reserved", "renewing", "boxes"].map(stem), [
    "book",
    "library",
    "reserv",
    "renew",
    "box",
  ]);
});

test("the lexicon as data: stopwords, dropped phrases, joins, abbreviations, one-way synonyms", () => {
  const lexicon = new Lexicon({
    stopwords: ["the", "a"],
    drop: [["how", "do", "i"]],
    joins: [["set", "up", "setup"]],
    abbreviations: { information: "info" },
    synonyms: [["shelf", "rack", "~cupboard"]],
  });
  assert.equal(lexicon.analyze("how do I set up the shelf information"), ["setup", "shelf", "info"]);
  assert.equal(new Lexicon().analyze("how do I set up the shelf"), ["how", "do", "i", "set", "up", "the", "shelf"]);
  assert.equal(lexicon.query(requestWords("how do I set up the shelf information"), 64).terms, [
    "setup",
    "shelf",
    "info",
  ]);
  assert.equal([...lexicon.synonyms("shelf")], ["rack"]);
  assert.equal([...lexicon.synonyms("cupboard")].sort(), ["rack", "shelf"]);
  // One-way: nothing leads back to a word marked ~.
  assert.not.ok([...lexicon.synonyms("rack")].includes("cupboard"));
  assert.equal([...new Lexicon().synonyms("shelf")], []);
});

test("a query is read once: a question, a change, implied terms, values left out", () => {
  const lexicon = new Lexicon(SEARCH_LEXICON);
  const read = (query: string) => lexicon.query(requestWords(query), 64);
  assert.ok(read("which books are lent").asks);
  assert.not.ok(read("how do I delete a book").asks);
  assert.ok(read("delete a book").changes);
  assert.not.ok(read("which books did I delete").changes);
  // A plural with nothing to change is listed; "my" implies the current user.
  assert.ok(read("overdue loans").lists);
  assert.not.ok(read("delete the loans").lists);
  assert.not.ok(read("the loan").lists);
  assert.ok(read("my loans").implied.includes("current"));
  // Values the request gives are not its words.
  assert.equal(read('renew "The Hobbit" for ann@example.org, loan 42, bk_77x and ann/shelf-one').terms, [
    stem("renew"),
    "loan",
  ]);
  assert.equal(read("add a note").terms, ["add", "note"]);
  assert.ok(read("check out the book by MAX_QUERY_TERMS words").terms.length <= 64);
  assert.equal(read("a ".repeat(100) + "book").terms, ["book"]);
});

test("search: the lexicon's actions and the method find the operation first", () => {
  assert.is(top("remove a book")[0], "deleteBook");
  assert.is(top("make a new book")[0], "createBook");
  assert.is(top("show all books")[0], "listBooks");
  assert.is(top("edit the book's title")[0], "updateBook");
  assert.is(top("find members")[0], "searchMembers");
  assert.is(top("which loans does member 4 have")[0], "listMemberLoans");
  // The same request without the lexicon: "remove" names nothing the API says.
  const bare = new OperationSearch(buildSearchIndex(DOCS));
  assert.not.equal(bare.search("remove a book", { limit: 1 })[0]?.name, "deleteBook");
});

test("the API's own vocabulary: a body enum names an action, an example's id prefix a collection", () => {
  assert.is(top("reserve a book")[0], "bookAction");
  const withoutValues = new OperationSearch(
    buildSearchIndex(
      DOCS.map((d) => ({ ...d, values: [] })),
      SEARCH_LEXICON,
    ),
  );
  assert.not.equal(withoutValues.search("reserve a book", { limit: 1 })[0]?.name, "bookAction");
  // The tool's path parameter shows its id prefix by example: "fn_9" is a fine.
  const tool = {
    name: "payFine",
    description: "Pays a fine.",
    inputSchema: {
      type: "object",
      properties: { fine_id: { type: "string", example: "fn_8Hx2" } },
      required: ["fine_id"],
    },
    http: { method: "post", path: "/fines/{fine_id}/pay", parameters: [] },
  } as unknown as ToolDefinition;
  const fine = searchDocument(tool);
  // Nested body properties count: their names, titles and enum values.
  const nested = searchDocument({
    ...tool,
    inputSchema: {
      type: "object",
      properties: {
        action: {
          type: "object",
          properties: { kind: { type: "string", title: "Kind of hold", enum: ["reserve", "renew"] } },
        },
      },
    },
  } as unknown as ToolDefinition);
  assert.equal(nested.parameters, ["action", "kind", "Kind of hold"]);
  assert.equal(nested.values, ["reserve", "renew"]);
  assert.equal(fine.ids, { fn: "fines" });
  assert.equal(fine.required, ["fine_id"]);
  const data = buildSearchIndex([...DOCS.filter((d) => d.name !== "payFine"), fine], SEARCH_LEXICON);
  assert.equal(data.ids, { fn: ["fines"] });
  assert.is(new OperationSearch(data).search("pay fn_31", { limit: 1 })[0]?.name, "payFine");
  // Each term records the fields it came from (bits: 1 name … 64 enum values).
  assert.is(data.sources![stem("reserve")], 64);
  assert.ok((data.sources!["book"]! & 1) !== 0);
});

test("the shortlist: name, method, path, a one-line summary of at most 100 characters, required arguments", () => {
  const long = doc("renewLoan", "post", "/loans/{loan_id}/renew", "Renew a loan ".repeat(20), ["loans"], {
    required: ["loan_id"],
  });
  const small = new OperationSearch(buildSearchIndex([...DOCS, long], SEARCH_LEXICON));
  const [hit] = small.search("renew a loan", { limit: 1 });
  assert.equal(Object.keys(hit!).sort(), ["method", "name", "path", "required", "summary"]);
  assert.is(hit!.name, "renewLoan");
  assert.equal(hit!.required, ["loan_id"]);
  assert.ok(hit!.summary.length <= 100 && hit!.summary.endsWith("…"));
  assert.equal(top("book", { tag: "members" }), []);
  assert.is(index.search("book", { limit: 10 }).length, 6);
});

test("browsing an API without tags: each operation under its path's first segment, after a version", () => {
  const untagged = new OperationSearch(
    buildSearchIndex(
      DOCS.map((d) => ({ ...d, tags: [], path: `/v2${d.path}` })),
      SEARCH_LEXICON,
    ),
  );
  assert.equal(untagged.tags().slice(0, 2), [
    { tag: "books", operations: 6 },
    { tag: "members", operations: 3 },
  ]);
  assert.equal(
    untagged.withTag("fines", { limit: 10 }).map((hit) => hit.name),
    ["payFine"],
  );
  assert.equal(
    untagged.search("book", { limit: 10, tag: "members" }).map((hit) => hit.name),
    [],
  );
});

test("browsing: the tags with their counts, then a tag's operations", () => {
  assert.equal(index.tags().slice(0, 2), [
    { tag: "books", operations: 6 },
    { tag: "members", operations: 2 },
  ]);
  assert.equal(
    index.tags((name) => name !== "payFine").map((t) => t.tag),
    ["books", "members", "loans", "me"],
  );
  assert.equal(
    index.withTag("MEMBERS", { limit: 10 }).map((hit) => hit.name),
    ["createMember", "searchMembers"],
  );
  assert.equal(
    index.withTag("books", { limit: 2, allowed: (name) => name !== "listBooks" }).map((h) => h.name),
    ["createBook", "getBook"],
  );
});

test("the index JSON is deterministic, carries the lexicon, round-trips and refuses another format", () => {
  const data = buildSearchIndex(DOCS, SEARCH_LEXICON);
  const text = searchIndexJson(data);
  assert.is(text, searchIndexJson(buildSearchIndex(DOCS, SEARCH_LEXICON)));
  assert.equal(JSON.parse(text), data);
  assert.equal(JSON.parse(text).lexicon, SEARCH_LEXICON);
  assert.throws(() => new OperationSearch({ ...data, format: 99 }), /format 99/);
});

test("postings are stored as gaps in base 36, operations as JSON text; both decode to the same data", () => {
  const pairs = [0, 100, 7, 1, 1_000, 35, 1_036, 123_456];
  assert.is(encodePostings(pairs), "0,2s,7,1,rl,z,10,2n9c");
  assert.equal(decodePostings(encodePostings(pairs)), pairs);
  assert.equal(decodePostings(encodePostings([])), []);
  const data = buildSearchIndex(DOCS, SEARCH_LEXICON);
  assert.match(data.terms.book!, /^[0-9a-z,]+$/);
  assert.equal(
    decodePostings(data.terms.book!).filter((_, i) => i % 2 === 0),
    [0, 1, 2, 3, 4, 5],
  );
  // Operations are JSON strings, parsed when a search reads them.
  assert.equal(JSON.parse(data.docs[2]!), [
    "getBook",
    "GET",
    "/books/{book_id}",
    "Get a book",
    ["books"],
    ["book_id"],
    ["book"],
  ]);
});

test("the lexicon file: typed sections of lower-case words", () => {
  const sections = ["stopwords", "drop", "joins", "abbreviations", "actions", "synonyms", "implies", "questions"];
  for (const section of sections) assert.ok(section in SEARCH_LEXICON, section);
  const all = JSON.stringify({ ...SEARCH_LEXICON, about: "" });
  assert.not.match(all, /[A-Z]/);
  assert.equal(Object.keys(SEARCH_LEXICON.actions!).sort(), ["create", "delete", "get", "list", "search", "update"]);
  for (const join of SEARCH_LEXICON.joins!) assert.ok(join.length >= 3, join.join(" "));
});

test("20,000 synthetic operations: every query answers with operations that match its words", () => {
  const big = new OperationSearch(buildSearchIndex(syntheticSearchDocuments(20_000), SEARCH_LEXICON));
  for (const query of SYNTHETIC_QUERIES) assert.is(big.search(query, { limit: 10 }).length, 10, query);
  const deleted = big.search("delete a calendar event", { limit: 10 })[0]!;
  assert.is(deleted.method, "DELETE");
  assert.match(deleted.path, /calendar/);
  assert.match(deleted.path, /event/);
});

test("the shortlist is the head of the full ranking, whatever the limit, the filter and the searches before it", () => {
  const big = new OperationSearch(buildSearchIndex(syntheticSearchDocuments(2_000), SEARCH_LEXICON));
  const names = (query: string, limit: number, allowed?: (name: string) => boolean) =>
    big.search(query, { limit, ...(allowed ? { allowed } : {}) }).map((hit) => hit.name);
  const odd = (name: string) => name.length % 2 === 1;
  for (const query of SYNTHETIC_QUERIES) {
    const full = names(query, 2_000);
    assert.ok(full.length > 20, query);
    for (const limit of [0, 1, 3, 10]) assert.equal(names(query, limit), full.slice(0, limit), `${query} @${limit}`);
    assert.equal(names(query, 5, odd), full.filter(odd).slice(0, 5), `${query}, filtered`);
  }
});

test("a hostile query is bounded work: 16,000 words answer at once, as their first MAX_QUERY_CHARS characters do", () => {
  const verbs = ["get", "show", "list", "make", "create", "new", "add", "delete", "remove", "update", "find", "view"];
  const query = Array.from({ length: 16_000 }, (_, i) =>
    i % 2 ? verbs[i % verbs.length] : `w${i.toString(36)}x`,
  ).join(" ");
  const started = performance.now();
  const hits = index.search(query, { limit: 10 });
  const ms = performance.now() - started;
  assert.ok(ms < 1_000, `${Math.round(ms)} ms`);
  assert.equal(hits, index.search(query.slice(0, MAX_QUERY_CHARS), { limit: 10 }));
});

test.run();
