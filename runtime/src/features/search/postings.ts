/**
 * A term's postings as one compact string: `gap,tf,gap,tf,…` in base 36, where gap is the doc id minus the
 * previous one (the first: the id itself). JSON.parse of a string is far cheaper than of the millions of
 * numbers a large API's index holds, and a query decodes only the few terms it uses.
 */

/** Encodes flat pairs `[docId, weightedTf × 100, …]` (doc ids ascending, values non-negative integers). */
export function encodePostings(pairs: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0, previous = 0; i < pairs.length; i += 2) {
    parts.push((pairs[i]! - previous).toString(36), pairs[i + 1]!.toString(36));
    previous = pairs[i]!;
  }
  return parts.join(",");
}

/** The flat pairs `[docId, weightedTf × 100, …]` that `encodePostings` made `text` of. */
export function decodePostings(text: string): number[] {
  if (text === "") return [];
  const parts = text.split(",");
  const pairs = new Array<number>(parts.length);
  for (let i = 0, id = 0; i < parts.length; i += 2) {
    id += parseInt(parts[i]!, 36);
    pairs[i] = id;
    pairs[i + 1] = parseInt(parts[i + 1]!, 36);
  }
  return pairs;
}
