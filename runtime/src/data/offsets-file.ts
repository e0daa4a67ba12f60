/**
 * Reading fixed-width offset files (`data/tool-offsets.txt`, `data/definition-offsets.txt`,
 * `data/declaration-offsets.txt`): line i holds where item i of a one-item-per-line JSON file is,
 * as zero-padded decimal numbers (`0000001234 0000000567`). Every line has the same length, so the
 * server reads item i's line by its byte range and never parses the whole list: MS Graph beta's
 * catalog (4.3 MB) took about 100 ms to read and parse on a small machine, one line takes well under
 * a millisecond. Text rather than binary, so a person can still read the files (`sed -n 5p`).
 */

/** Digits per number: offsets up to 10 GB. */
export const OFFSET_DIGITS = 10;

/** Bytes of one record of `fields` numbers, its newline included. */
export function recordLength(fields: number): number {
  return fields * (OFFSET_DIGITS + 1);
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
