/**
 * Packed data files: what the generator packs (generator/pipeline/emit/data/packed-files.ts) the
 * runtime reads back (runtime/src/data/packed-file.ts), whole and by byte range, across blocks.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKED_BLOCK_BYTES, readDataText, readRange } from "../../runtime/src/features/large-data/packed-file.js";
import { DataFileWriter, packedFile, packLargeFiles } from "../../generator/pipeline/emit/data/packed-files.js";
import { jsonLines } from "../../generator/pipeline/emit/data/data-files.js";
import type { EmittedFile } from "../../generator/pipeline/emit/emitted-file.js";

/** Writes `files` into a new folder; returns the URL of its `data/` folder and a cleanup. */
function project(files: EmittedFile[]): { data: URL; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-packed-"));
  for (const file of files) writeFileSync(join(dir, file.path.replace("data/", "")), file.content);
  return { data: pathToFileURL(`${dir}/`), done: () => rmSync(dir, { recursive: true, force: true }) };
}

// 3,000 items of about 100 bytes: 300 KB of text, five blocks; every item different.
const items = Array.from({ length: 3_000 }, (_, i) => ({ id: i, name: `item-${i}`, text: "x".repeat(i % 97) }));
const { text, ranges } = jsonLines(items);

test("a packed file reads back whole and by range, an item across two blocks included", () => {
  const files = packedFile({ path: "data/tools.json", content: text, formatted: true });
  assert.equal(
    files.map((file) => file.path),
    ["data/tools.json.packed", "data/tools.json.packed-offsets.txt"],
  );
  assert.is(files[0]!.content.split("\n").length - 1, Math.ceil(text.length / PACKED_BLOCK_BYTES), "a line per block");
  assert.ok(files[0]!.content.length < text.length / 4, `packed ${files[0]!.content.length} of ${text.length} bytes`);
  const { data, done } = project(files);
  try {
    const file = new URL("tools.json", data);
    assert.is(readDataText(file), text);
    const across = ranges.findIndex(([offset, length]) => {
      const block = Math.floor(offset / PACKED_BLOCK_BYTES);
      return Math.floor((offset + length - 1) / PACKED_BLOCK_BYTES) > block;
    });
    assert.ok(across > 0, "some item spans two blocks");
    for (const index of [0, across, items.length - 1]) {
      const [offset, length] = ranges[index]!;
      assert.equal(JSON.parse(readRange(file, offset, length)), items[index]);
    }
  } finally {
    done();
  }
});

test("non-ASCII text survives packing (blocks cut bytes, the whole is joined before decoding)", () => {
  const document = JSON.stringify({ title: "Grüße – 東京", filler: "é".repeat(PACKED_BLOCK_BYTES) });
  const { data, done } = project(packedFile({ path: "data/openapi.json", content: document }));
  try {
    assert.is(readDataText(new URL("openapi.json", data)), document);
  } finally {
    done();
  }
});

test("a plain file is read as it is; a missing file is undefined", () => {
  const { data, done } = project([{ path: "data/catalog.json", content: "[1]\n" }]);
  try {
    assert.is(readDataText(new URL("catalog.json", data)), "[1]\n");
    assert.is(readRange(new URL("catalog.json", data), 1, 1), "1");
    assert.is(readDataText(new URL("search-index.json", data)), undefined);
  } finally {
    done();
  }
});

test("only the runtime's data files over the size limit are packed", () => {
  const files: EmittedFile[] = [
    { path: "data/tools.json", content: text },
    { path: "data/catalog.json", content: "[]" },
    { path: "test/cases.json", content: text },
    { path: "data/tool-offsets.txt", content: text },
  ];
  assert.equal(
    packLargeFiles(files, 1_000).map((file) => file.path),
    [
      "data/tools.json.packed",
      "data/tools.json.packed-offsets.txt",
      "data/catalog.json",
      "test/cases.json",
      "data/tool-offsets.txt",
    ],
  );
  assert.equal(packLargeFiles(files), files, "nothing here reaches the default limit");
});

/** `pieces` written to a DataFileWriter at `path` with the limit `minBytes`. */
function written(path: string, pieces: string[], minBytes: number): EmittedFile[] {
  const writer = new DataFileWriter(path, minBytes);
  for (const piece of pieces) writer.write(piece);
  return writer.files();
}

test("a file written in pieces is packed as the whole text would be: blocks cut where the bytes fall", () => {
  // Pieces small and larger than a block; a surrogate pair and 2- and 3-byte characters across block ends.
  const pieces = [
    "{\n",
    "a".repeat(PACKED_BLOCK_BYTES - 3),
    "é😀",
    "b".repeat(PACKED_BLOCK_BYTES * 2 + 5),
    "東京".repeat(30_000),
    `${"c".repeat(PACKED_BLOCK_BYTES - 1)}😀d`, // a piece sliced where a surrogate pair is
    ...items.map((item) => `${JSON.stringify(item)}\n`),
    "}\n",
  ];
  const whole = pieces.join("");
  const files = written("data/declarations.json", pieces, 1_000);
  assert.equal(files, packLargeFiles([{ path: "data/declarations.json", content: whole, formatted: true }], 1_000));
  assert.is(files[0]!.path, "data/declarations.json.packed");
  const { data, done } = project(files);
  try {
    assert.is(readDataText(new URL("declarations.json", data)), whole);
  } finally {
    done();
  }
});

test("a written file stays plain under the limit, and always when the runtime does not read it packed", () => {
  assert.equal(written("data/tools.json", ["[\n", "1\n", "]\n"], 1_000), [
    { path: "data/tools.json", content: "[\n1\n]\n", formatted: true },
  ]);
  assert.equal(written("data/tools.json", [], 1_000), [{ path: "data/tools.json", content: "", formatted: true }]);
  assert.equal(written("test/cases.json", [text], 1_000), [
    { path: "test/cases.json", content: text, formatted: true },
  ]);
});

test.run();
