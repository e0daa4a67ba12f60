/**
 * Offset files (`data/*-offsets.txt`): line i holds where item i of a one-item-per-line file is, as
 * fixed-width decimal numbers (`0000001234 0000000567`), so one item is read without parsing all;
 * and the byte-range read they are used with.
 */
import { closeSync, openSync, readSync } from "node:fs";

/** Digits per number of an offsets file: offsets up to 10 GB. */
export const OFFSET_DIGITS = 10;

/** Bytes of one record of `fields` numbers, its newline included. */
export function recordLength(fields: number): number {
  return fields * (OFFSET_DIGITS + 1);
}

/** Record `index` (0-based) of an offsets file of `fields` numbers per record; undefined when the file is shorter. */
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

/** `length` bytes of `file` from `offset` (fewer at the end of the file). */
export function readBytes(file: URL, offset: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, "r");
  try {
    let done = 0;
    while (done < length) {
      const read = readSync(fd, buffer, done, length - done, offset + done);
      if (read === 0) break;
      done += read;
    }
    return buffer.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}
