/**
 * The generator reaches the runtime through generator/shared/contract.ts only (see its header): a deep
 * import of runtime/src from anywhere else in generator/ or cli/ fails here. And the runtime code it
 * reaches that way uses only Node built-ins: the generator runs it, and must not need the packages
 * a generated server depends on.
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { sources, specifiers, valueSpecifiers } from "../support/import-graph.js";

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

/** A module Node has built in: `node:fs`, `fs`, `fs/promises`. */
function builtin(spec: string): boolean {
  return spec.startsWith("node:") || builtinModules.includes(spec) || builtinModules.includes(spec.split("/")[0]!);
}

/**
 * The packages (not Node built-ins) that the modules `entry` imports at run time reach, following
 * relative imports from file to file, as "file: package" (paths relative to the root).
 */
export function packagesReached(
  entry: string,
  read: (file: string) => string = (file) => readFileSync(file, "utf8"),
  exists: (file: string) => boolean = existsSync,
) {
  const seen = new Set<string>();
  const packages: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of valueSpecifiers(read(file))) {
      if (!spec.startsWith(".")) {
        if (!builtin(spec)) packages.push(`${relative(root, file)}: ${spec}`);
        continue;
      }
      const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
      if (target.endsWith(".ts") && exists(target)) queue.push(target); // JSON data has no imports
    }
  }
  return { files: seen.size, packages };
}

test("the runtime code the generator imports (through contract.ts) uses only Node built-ins", () => {
  const { files, packages } = packagesReached(join(root, "generator", "shared", "contract.ts"));
  assert.ok(files > 20, `only ${files} files reached`);
  assert.equal(packages, []);
});

test("a package reached through a relative import is found, a type-only import is not", () => {
  const texts: Record<string, string> = {
    [join(root, "a.ts")]:
      'import { b } from "./b.js";\nimport type { Options } from "got";\nimport { readFileSync } from "node:fs";',
    [join(root, "b.ts")]: 'import Ajv from "ajv";\nexport { b } from "./a.js";\nimport "fs/promises";',
  };
  const reached = packagesReached(
    join(root, "a.ts"),
    (file) => texts[file]!,
    (file) => file in texts,
  );
  assert.equal(reached.packages, ["b.ts: ajv"]);
});

test.run();
