import { test } from "uvu";
import * as assert from "uvu/assert";
import { dependencyChanges, describeDependencyChanges } from "../../generator/pipeline/write/dependency-changes.js";

test("the dependency changes of package.json: added, removed, moved; none for unchanged or unreadable text", () => {
  const before = JSON.stringify({ dependencies: { got: "14.0.0", jose: "5.0.0" }, devDependencies: { tsx: "1.0.0" } });
  const after = JSON.stringify({
    dependencies: { got: "14.1.0", ioredis: "5.4.0" },
    devDependencies: { tsx: "1.0.0" },
  });
  const changes = dependencyChanges(before, after);
  assert.equal(changes, [
    { name: "got", kind: "dependencies", from: "14.0.0", to: "14.1.0" },
    { name: "ioredis", kind: "dependencies", to: "5.4.0" },
    { name: "jose", kind: "dependencies", from: "5.0.0" },
  ]);
  assert.is(describeDependencyChanges(changes), "got 14.0.0 → 14.1.0, added ioredis@5.4.0, removed jose");
  assert.equal(dependencyChanges(before, before), []);
  assert.equal(dependencyChanges("not json", after), []);
});

test.run();
