/**
 * Cancellation's callbacks: run once, in the order added, whether one or many were added, and a
 * callback taken off is not run (the first is kept without a Set; these pin what that must not change).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Cancellation } from "../../runtime/src/protocol/cancellation.js";

test("callbacks run once, in the order added", () => {
  const cancellation = new Cancellation();
  const ran: string[] = [];
  cancellation.onCancel(() => ran.push("a"));
  cancellation.onCancel(() => ran.push("b"));
  cancellation.onCancel(() => ran.push("c"));
  cancellation.cancel("stop");
  cancellation.cancel("again");
  assert.equal(ran, ["a", "b", "c"]);
  assert.equal(cancellation.cancelled, { reason: "stop" });
});

test("a callback taken off is not run, first or later", () => {
  const cancellation = new Cancellation();
  const ran: string[] = [];
  const offA = cancellation.onCancel(() => ran.push("a"));
  offA();
  const offB = cancellation.onCancel(() => ran.push("b"));
  cancellation.onCancel(() => ran.push("c"));
  offB();
  offA();
  cancellation.onCancel(() => ran.push("d"));
  cancellation.cancel(undefined);
  assert.equal(ran, ["c", "d"]);
});

test("a lone callback taken off leaves nothing to run; a child follows its parent", () => {
  const parent = new Cancellation();
  const child = new Cancellation(parent);
  const ran: string[] = [];
  child.onCancel(() => ran.push("child"))();
  child.onCancel(() => ran.push("kept"));
  parent.cancel("gone");
  assert.equal(ran, ["kept"]);
  assert.equal(child.cancelled, { reason: "gone" });
});

test.run();
