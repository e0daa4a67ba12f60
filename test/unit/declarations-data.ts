import { test } from "uvu";
import * as assert from "uvu/assert";
import { declarationFiles } from "../../generator/pipeline/emit/data/data-files.js";
import { readRecord } from "../../runtime/src/features/large-data/offsets-file.js";
import { declarationReader } from "../../runtime/src/features/search/meta-tools.js";

const DECLARATIONS = {
  listPets: "interface ListPetsInput {\n  /** “Quoted” prose, ünïcode */\n  limit?: number;\n}\n",
  "repos/get-content": "type Out = { path: string };\n",
  empty: "",
};
/** Tool order: one tool without a declaration, the others in another order than the map's. */
const NAMES = ["repos/get-content", "noDeclaration", "listPets", "empty"];

test("one declaration per line; line i of the offsets locates tool i's as a JSON string; the file is the same map", () => {
  const { text, offsets } = declarationFiles(DECLARATIONS, NAMES);
  assert.equal(JSON.parse(text), DECLARATIONS);
  assert.is(text.split("\n").length, Object.keys(DECLARATIONS).length + 3);
  assert.ok(/^[\x00-\x7f]*$/.test(text), "ASCII only: string offsets are byte offsets");
  const line = (i: number) => readRecord((offset, length) => offsets.slice(offset, offset + length), i, 2)!;
  NAMES.forEach((name, i) => {
    const [offset, length] = line(i);
    if (name === "noDeclaration") assert.equal([offset, length], [0, 0]);
    else
      assert.is(JSON.parse(text.slice(offset, offset + length)), DECLARATIONS[name as keyof typeof DECLARATIONS], name);
  });
  assert.is(declarationFiles({}, []).offsets, "");
});

test("the reader reads one offsets line and one range per declaration, never the whole file", () => {
  const { text, offsets } = declarationFiles(DECLARATIONS, NAMES);
  const reads: string[] = [];
  const files: Record<string, string> = { "declarations.json": text, "declaration-offsets.txt": offsets };
  const read = declarationReader(
    (name) => NAMES.indexOf(name),
    (file, offset, length) => (
      reads.push(file),
      Buffer.from(files[file]!)
        .subarray(offset, offset + length)
        .toString("utf8")
    ),
  );
  assert.is(read("listPets"), DECLARATIONS.listPets);
  assert.is(read("repos/get-content"), DECLARATIONS["repos/get-content"]);
  assert.is(read("noDeclaration"), undefined);
  assert.is(read("missing"), undefined);
  assert.equal(reads, [
    "declaration-offsets.txt",
    "declarations.json",
    "declaration-offsets.txt",
    "declarations.json",
    "declaration-offsets.txt",
  ]);
  const absent = declarationReader(
    () => 0,
    () => {
      throw Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" });
    },
  );
  assert.is(absent("listPets"), undefined, "a project without the offsets file has no declarations");
  const broken = declarationReader(
    () => 0,
    () => {
      throw new Error("EIO");
    },
  );
  assert.throws(() => broken("listPets"), /EIO/, "other read errors are not hidden");
});

test.run();
