import { test } from "uvu";
import * as assert from "uvu/assert";
import { declarationFiles, declarationReader } from "../../runtime/src/declarations-data.js";

const DECLARATIONS = {
  listPets: 'interface ListPetsInput {\n  /** “Quoted” prose, ünïcode */\n  limit?: number;\n}\n',
  "repos/get-content": "type Out = { path: string };\n",
  empty: "",
};

test("one declaration per line; the index locates each as a JSON string; the file is the same map", () => {
  const { text, index } = declarationFiles(DECLARATIONS);
  assert.equal(JSON.parse(text), DECLARATIONS);
  assert.is(text.split("\n").length, Object.keys(DECLARATIONS).length + 3);
  assert.ok(/^[\x00-\x7f]*$/.test(text), "ASCII only: string offsets are byte offsets");
  const ranges = JSON.parse(index) as Record<string, [number, number]>;
  for (const [name, declaration] of Object.entries(DECLARATIONS)) {
    const [offset, length] = ranges[name]!;
    assert.is(JSON.parse(text.slice(offset, offset + length)), declaration, name);
  }
  assert.is(declarationFiles({}).index, "{}\n");
});

test("the reader reads the index once and one range per declaration", () => {
  const { text, index } = declarationFiles(DECLARATIONS);
  const reads: string[] = [];
  const files: Record<string, string> = { "declarations.json": text, "declarations-index.json": index };
  const read = declarationReader(
    (file) => (reads.push(file), files[file]),
    (file, offset, length) => (reads.push(`${file}@${offset}`), Buffer.from(files[file]!).subarray(offset, offset + length).toString("utf8")),
  );
  assert.is(read("listPets"), DECLARATIONS.listPets);
  assert.is(read("repos/get-content"), DECLARATIONS["repos/get-content"]);
  assert.is(read("missing"), undefined);
  assert.is(read("constructor"), undefined, "no prototype keys");
  assert.equal(reads.filter((r) => r === "declarations-index.json").length, 1);
  assert.not.ok(reads.includes("declarations.json"), "never parsed whole");
  const none = declarationReader(() => undefined, () => assert.unreachable("no index, no range") as never);
  assert.is(none("listPets"), undefined);
});

test.run();
