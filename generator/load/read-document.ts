import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import YAML from "yaml";
import { Codes, DiagnosticBag } from "../diagnostics.js";

/** The raw text of a spec and where it came from. */
export interface SourceText {
  /** Absolute file path or URL. */
  location: string;
  text: string;
  isUrl: boolean;
}

/** True for `http:` / `https:` locations. */
export function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Reads a spec from disk, or from a URL when `allowRemote` is set. */
export async function readSource(
  location: string,
  allowRemote: boolean,
  bag: DiagnosticBag,
): Promise<SourceText | undefined> {
  if (isUrl(location)) {
    if (!allowRemote) {
      bag.error(
        Codes.remoteRefBlocked,
        `Refusing to download ${location}: reading specs from the network is off by default.`,
        undefined,
        "Pass --allow-remote to fetch the spec and its remote $refs, or download it and pass the file path.",
      );
      return undefined;
    }
    const response = await fetch(location);
    if (!response.ok) {
      bag.error(Codes.fileNotFound, `Could not download ${location}: HTTP ${response.status}.`);
      return undefined;
    }
    return { location, text: await response.text(), isUrl: true };
  }
  try {
    return { location, text: await readFile(location, "utf8"), isUrl: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    bag.error(
      Codes.fileNotFound,
      code === "ENOENT" ? `Spec file not found: ${location}` : `Cannot read ${location}: ${String(error)}`,
      undefined,
      "Check the path; the spec may be YAML or JSON.",
    );
    return undefined;
  }
}

/** Parses JSON or YAML text; syntax errors become diagnostics with a line and column. */
export function parseDocument(source: SourceText, bag: DiagnosticBag): unknown {
  const looksJson = extname(source.location).toLowerCase() === ".json" || /^\s*\{/.test(source.text);
  if (looksJson) {
    try {
      return JSON.parse(source.text);
    } catch {
      // Fall through: YAML is a superset of JSON and reports positions precisely.
    }
  }
  const doc = YAML.parseDocument(source.text, { uniqueKeys: false, prettyErrors: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors.slice(0, 5)) {
      const pos = error.linePos?.[0];
      bag.error(
        Codes.parseFailed,
        `${source.location}${pos ? `:${pos.line}:${pos.col}` : ""}: ${error.message.split("\n")[0]}`,
        undefined,
        "Fix the YAML/JSON syntax at that line.",
      );
    }
    return undefined;
  }
  return doc.toJS({ maxAliasCount: -1 });
}
