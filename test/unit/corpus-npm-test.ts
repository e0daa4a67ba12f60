import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseTap } from "../../test/corpus/npm-test.js";

test("parseTap counts node's TAP totals and names failed cases with their first error line", () => {
  const output = [
    "ok 1 - lists every tool",
    "not ok 2 - getPet: the request matches the API and the answer comes back",
    "  ---",
    "  error: 'the tool did not call the upstream'",
    "  ...",
    "not ok 3 - listPets: the request matches the API and the answer comes back",
    "  ---",
    "  error: |-",
    "    GET /pets: required query parameter limit missing",
    "    more",
    "  ...",
    "# tests 3",
    "# pass 1",
    "# fail 2",
  ].join("\n");
  const parsed = parseTap(output);
  assert.is(parsed.passed, 1);
  assert.is(parsed.failed, 2);
  assert.equal(parsed.failures, [
    "getPet: the request matches the API and the answer comes back — 'the tool did not call the upstream'",
    "listPets: the request matches the API and the answer comes back — GET /pets: required query parameter limit missing",
  ]);
});

test.run();
