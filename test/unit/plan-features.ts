/** Which runtime features a project gets: those asked for, and those its API needs (chooseFeatures). */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { chooseFeatures } from "../../generator/pipeline/plan/features.js";

test("an API whose operations send forms, files or rarer parameter styles gets feature encodings, a JSON API does not", () => {
  const json = chooseFeatures([], "all", [], { security: false, pagination: false });
  assert.equal(json.features, []);
  const forms = chooseFeatures([], "all", [], { security: false, pagination: false, encodings: true });
  assert.equal(forms.features, ["encodings"]);
  assert.match(forms.added.encodings!, /forms, files, cookies or rarer parameter styles/);
  assert.equal(chooseFeatures(["encodings"], "all", [], { security: false, pagination: false }).features, [
    "encodings",
  ]);
});

test("a spec whose server URL has variables gets feature server-vars", () => {
  const choice = chooseFeatures([], "all", [], { security: false, pagination: false, serverVariables: true });
  assert.equal(choice.features, ["server-vars"]);
  assert.match(choice.added["server-vars"]!, /server URL has variables/);
});

test.run();
