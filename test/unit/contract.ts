/**
 * The generator reaches the runtime through generator/shared/contract.ts only (see its header): a deep
 * import of runtime/src from anywhere else in generator/ or cli/ fails here.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { sources, specifiers } from "../import-graph.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

test("specifiers() finds static, side-effect, re-export and dynamic imports, and nothing in strings", () => {
  const text =
    'import { a } from "../runtime/src/x.js";\nimport "./y.js";\nexport * from "z";\nconst m = await import("./w.js");\n' +
    "import {\n  b,\n  type C,\n} from \"v\";\nconst s = \"taken from 'q'\"; // import 'r'\n";
  assert.equal(specifiers(text), ["../runtime/src/x.js", "./y.js", "z", "./w.js", "v"]);
});

test("only generator/shared/contract.ts imports runtime/src", () => {
  const files = [...sources(join(root, "generator")), ...sources(join(root, "cli"))];
  assert.ok(files.length > 50, `found only ${files.length} sources`);
  const deep = files
    .filter((file) => relative(root, file) !== join("generator", "shared", "contract.ts"))
    .flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((spec) => spec.includes("runtime/src/"))
        .map((spec) => `${relative(root, file)}: ${spec}`),
    );
  assert.equal(deep, []);
  assert.ok(
    specifiers(readFileSync(join(root, "generator", "shared", "contract.ts"), "utf8")).some((spec) =>
      spec.startsWith("../../runtime/src/"),
    ),
  );
});

test.run();
