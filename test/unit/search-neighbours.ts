// Words near in meaning (word vectors distilled at generation): a query word the index lacks is
// read as the indexed terms near it, lighter than a word typed; action words are never expanded.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SEARCH_LEXICON, searchIndexFromDocuments } from "../../generator/pipeline/emit/data/search-index.js";
import { searchNeighbours } from "../../generator/pipeline/emit/data/search-neighbours.js";
import { buildSearchIndex, type SearchDocument } from "../../runtime/src/features/search/search-build.js";
import { OperationSearch, type SearchIndexData } from "../../runtime/src/features/search/search-index.js";
import { Lexicon } from "../../runtime/src/features/search/search-text.js";

/** A small invented garage API: its words are "vehicle", "tyre", "invoice", none a request's synonym. */
function doc(name: string, method: string, path: string, summary: string): SearchDocument {
  return { name, method, path, summary, description: "", tags: [], parameters: [] };
}
const DOCUMENTS = [
  doc("listVehicles", "get", "/vehicles", "List vehicles"),
  doc("getVehicle", "get", "/vehicles/{id}", "Get a vehicle"),
  doc("listTyres", "get", "/vehicles/{id}/tyres", "List the tyres of a vehicle"),
  doc("listInvoices", "get", "/invoices", "List invoices"),
  doc("deleteInvoice", "delete", "/invoices/{id}", "Delete an invoice"),
];

test("a word the index lacks finds the operations of its neighbours; without them, nothing", () => {
  const index = buildSearchIndex(DOCUMENTS, SEARCH_LEXICON);
  const lexicon = new Lexicon(SEARCH_LEXICON);
  const car = lexicon.term("car");
  assert.is(index.terms[car], undefined);
  const withNeighbours = new OperationSearch({ ...index, neighbours: { [car]: [lexicon.term("vehicle")] } });
  assert.ok(withNeighbours.search("car", { limit: 1 })[0]?.path.startsWith("/vehicles"));
  assert.equal(new OperationSearch(index).search("car", { limit: 5 }), []);
});

test("a typed word the index has is not replaced by its neighbours", () => {
  const index = buildSearchIndex(DOCUMENTS, SEARCH_LEXICON);
  const lexicon = new Lexicon(SEARCH_LEXICON);
  // An (absurd) entry for an indexed term is ignored: the typed word wins.
  const neighbours = { [lexicon.term("invoice")]: [lexicon.term("tyre")] };
  const hits = new OperationSearch({ ...index, neighbours } as SearchIndexData).search("invoices", { limit: 5 });
  assert.equal(hits, new OperationSearch(index).search("invoices", { limit: 5 }));
  assert.ok(hits.length > 0 && hits.every((hit) => hit.path.startsWith("/invoices")));
});

test("the generator keeps the distilled neighbours this API's index has, never action words", () => {
  const index = buildSearchIndex(DOCUMENTS, SEARCH_LEXICON);
  const lexicon = new Lexicon(SEARCH_LEXICON);
  const neighbours = searchNeighbours(index, SEARCH_LEXICON);
  // Word vectors put "car" next to "vehicle", and "tires" next to "tyres".
  assert.ok(neighbours[lexicon.term("car")]?.includes(lexicon.term("vehicle")));
  for (const [term, list] of Object.entries(neighbours)) {
    assert.is(index.terms[term], undefined, `${term} is indexed: the search never expands it`);
    assert.equal(lexicon.actions(term), [], `${term} is an action word`);
    for (const near of list) {
      assert.ok(index.terms[near], `${near} is not indexed`);
      assert.equal(lexicon.actions(near), [], `${near} is an action word`);
    }
  }
  // "erase" is near "delete" in the vectors, but both are action words: the lexicon reads them.
  assert.is(neighbours[lexicon.term("erase")], undefined);
  // The generated index carries them.
  const data = JSON.parse(searchIndexFromDocuments(DOCUMENTS)) as SearchIndexData;
  assert.equal(data.neighbours, neighbours);
});

test.run();
