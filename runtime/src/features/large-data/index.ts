/**
 * Feature `large-data`: the data files of a large API, read one item at a time (offsets-file.ts,
 * ranged-tools.ts) and stored packed when very large (packed-file.ts). The generated entry and tool
 * index read data/ through it instead of the core's whole-file readers; it fills no slot of the core.
 */
import type { Feature } from "../../cli/features.js";

export { OFFSET_DIGITS, readRecord, recordLength } from "./offsets-file.js";
export { PACKED_BLOCK_BYTES, readDataText, readRange } from "./packed-file.js";
export { rangedToolSource, type RangedDataFiles } from "./ranged-tools.js";

export const largeData: Feature = {
  name: "large-data",
  plugs: () => ({}),
};
