import { test } from "uvu";
import * as assert from "uvu/assert";
import { splitPathTemplate } from "../../runtime/src/features/encodings/path-template.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";
import { buildRequest } from "../../runtime/src/upstream/request.js";
import type { HttpBinding } from "../../runtime/src/api/types.js";

test("splitPathTemplate: a query written after # or ? is split off; pairs and flags are fixed, declared names are not", () => {
  assert.equal(splitPathTemplate("/pets/{id}"), { path: "/pets/{id}", fixedQuery: [], names: [] });
  assert.equal(splitPathTemplate("/2013-01-01/search#format=sdk&pretty=true&q", ["q"]), {
    path: "/2013-01-01/search",
    fixedQuery: ["format=sdk", "pretty=true"],
    names: ["format", "pretty", "q"],
  });
  assert.equal(splitPathTemplate("/{Bucket}/{Key}#uploads").fixedQuery, ["uploads"]);
  assert.equal(splitPathTemplate("/analyze?overload=stream").fixedQuery, ["overload=stream"]);
  assert.equal(splitPathTemplate("/x#a=b%20c").fixedQuery, ["a=b%20c"]);
});

test("buildRequest sends the query a path template fixes, next to the declared parameters", () => {
  const http: HttpBinding = {
    method: "get",
    path: "/tags/{arn}#tagKeys&Action=Untag",
    parameters: [
      { in: "path", name: "arn", argument: "arn", required: true },
      { in: "query", name: "tagKeys", argument: "tagKeys", required: true },
    ],
    response: { accept: ["application/json"] },
  } as HttpBinding;
  assert.throws(() => buildRequest(http, { arn: "a/b", tagKeys: "k" }, "http://127.0.0.1:1"), /encodings feature/);
  const request = buildRequest(http, { arn: "a/b", tagKeys: "k" }, "http://127.0.0.1:1", requestEncodings());
  const url = new URL(request.url);
  assert.is(url.pathname, "/tags/a%2Fb");
  assert.is(url.hash, "");
  assert.is(url.searchParams.get("Action"), "Untag");
  assert.is(url.searchParams.get("tagKeys"), "k");
  assert.is(request.path, "/tags/a%2Fb");
});

test.run();
