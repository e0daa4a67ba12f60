/**
 * negotiate (http-exchange.ts): Accept and Content-Type of a request to the MCP endpoint. The media
 * types of the last Accept header are kept for the next request; requests with different headers in
 * turn must each get their own answer.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { HttpAnswer, negotiate } from "../../runtime/src/transport/http-exchange.js";

const status = (answer: readonly string[] | HttpAnswer) => (answer instanceof HttpAnswer ? answer.status : 200);

test("each request gets the answer of its own Accept header, in any order", () => {
  for (let round = 0; round < 2; round++) {
    assert.equal(negotiate({ accept: "application/json, text/event-stream" }), [
      "application/json",
      "text/event-stream",
    ]);
    assert.is(status(negotiate({ accept: "image/png" })), 406);
    assert.equal(negotiate({ accept: "Text/Event-Stream;q=0.5" }), ["text/event-stream"]);
    assert.equal(negotiate({}), []);
    assert.equal(negotiate({ accept: "" }), []);
  }
});

test("the shared list cannot be changed by one request for the next", () => {
  const first = negotiate({ accept: "application/json" }) as string[];
  assert.throws(() => first.push("image/png"));
  assert.equal(negotiate({ accept: "application/json" }), ["application/json"]);
});

test("Content-Type: JSON in any spelling passes, anything else is 415", () => {
  assert.is(status(negotiate({ "content-type": "application/json" })), 200);
  assert.is(status(negotiate({ "content-type": "Application/JSON; charset=utf-8" })), 200);
  assert.is(status(negotiate({ "content-type": "" })), 200);
  assert.is(status(negotiate({ "content-type": "text/plain" })), 415);
});

test.run();
