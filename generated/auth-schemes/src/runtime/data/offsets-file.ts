// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Fixed-width offset files (`data/tool-offsets.txt`, `data/definition-offsets.txt`,
 * `data/declaration-offsets.txt`): line i holds where item i of a one-item-per-line JSON file is,
 * as zero-padded decimal numbers (`0000001234 0000000567`). Every line has the same length, so the
 * server reads item i's line by its byte range and never parses the whole list: MS Graph beta's
 * catalog (4.3 MB) took about 100 ms to read and parse on a small machine, one line takes well under
 * a millisecond. Text rather than binary, so a person can still read the files (`sed -n 5p`).
 */

/** Digits per number: offsets up to 10 GB. */
const DIGITS = 10;

/** One number of a record, padded: `1234` → `0000001234`. */
function padded(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= 10 ** DIGITS)
    throw new RangeError(`offset ${value} does not fit ${DIGITS} digits`);
  return String(value).padStart(DIGITS, "0");
}

/** Bytes of one record of `fields` numbers, its newline included. */
export function recordLength(fields: number): number {
  return fields * (DIGITS + 1);
}

/** The text of an offsets file: one line per record, every record with the same number of fields. */
export function offsetsText(records: ReadonlyArray<readonly number[]>): string {
  return records.map((record) => `${record.map(padded).join(" ")}\n`).join("");
}

/**
 * Record `index` (0-based) of an offsets file of `fields` numbers per record, read by `readRange`
 * (file bytes at an offset); undefined when the file is shorter than that.
 */
export function readRecord(
  readRange: (offset: number, length: number) => string,
  index: number,
  fields: number,
): number[] | undefined {
  const length = recordLength(fields);
  const text = readRange(index * length, length);
  if (text.length < length) return undefined;
  const numbers = text.slice(0, -1).split(" ").map(Number);
  if (numbers.length !== fields || numbers.some((n) => !Number.isInteger(n)))
    throw new Error(`record ${index} of an offsets file is damaged: ${JSON.stringify(text)} (regenerate the server)`);
  return numbers;
}
