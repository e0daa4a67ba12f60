/**
 * Feature `binary-links`: binary content of a result over the inline size (binary-links.ts) kept
 * one link away instead of base64 in the conversation. Included when an operation of the API
 * answers with binary content (an image, audio, a PDF …); without it such content stays inline.
 */
import type { Feature } from "../../cli/features.js";
import { linkLargeBinaries } from "./binary-links.js";

export { INLINE_BINARY_CHARS, linkLargeBinaries } from "./binary-links.js";

export const binaryLinks: Feature = {
  name: "binary-links",
  plugs: () => ({ linkBinaries: linkLargeBinaries }),
};
