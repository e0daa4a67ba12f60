import { test } from "uvu";
import * as assert from "uvu/assert";
import { dropBundlePlaceholders } from "../../runtime/src/cli/settings.js";

test("unsubstituted ${user_config.…} values are removed; real values, even with braces, stay", () => {
  const env: NodeJS.ProcessEnv = {
    API_TOKEN: "${user_config.API_TOKEN}",
    API_BASE_URL: " ${user_config.API_BASE_URL} ",
    REAL: "s3cr3t",
    TEMPLATE: "prefix-${user_config.X}",
    EMPTY: "",
  };
  assert.equal(dropBundlePlaceholders(env), ["API_BASE_URL", "API_TOKEN"]);
  assert.equal(env, { REAL: "s3cr3t", TEMPLATE: "prefix-${user_config.X}", EMPTY: "" });
  assert.equal(dropBundlePlaceholders(env), [], "nothing left to drop");
});

test.run();
