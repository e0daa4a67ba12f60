import { test } from "uvu";
import * as assert from "uvu/assert";
import { readRecord, recordLength } from "../../runtime/src/features/large-data/offsets-file.js";
import { offsetsText } from "../../generator/pipeline/emit/data/data-files.js";

const reader = (text: string) => (offset: number, length: number) => text.slice(offset, offset + length);

test("fixed-width records: every line the same length, each read back by its index alone", () => {
  const records = [
    [0, 5],
    [1234, 9_999_999_999],
    [42, 0],
  ];
  const text = offsetsText(records);
  assert.is(text, "0000000000 0000000005\n0000001234 9999999999\n0000000042 0000000000\n");
  assert.is(text.length, records.length * recordLength(2));
  records.forEach((record, i) => assert.equal(readRecord(reader(text), i, 2), record));
  assert.is(readRecord(reader(text), 3, 2), undefined, "past the end");
  assert.is(offsetsText([]), "");
});

test("numbers that do not fit, and damaged lines, are errors", () => {
  assert.throws(() => offsetsText([[10_000_000_000]]), /does not fit 10 digits/);
  assert.throws(() => offsetsText([[-1]]), /does not fit/);
  assert.throws(() => offsetsText([[1.5]]), /does not fit/);
  assert.throws(() => readRecord(reader("0000000001 00000000x2\n"), 0, 2), /record 0 of an offsets file is damaged/);
});

test.run();
