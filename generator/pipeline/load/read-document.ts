import { isUtf8 } from "node:buffer";
import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import YAML from "yaml";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { READ_LIMITS } from "./limits.js";

/** The raw text of a spec and where it came from. */
export interface SourceText {
  /** Absolute file path or URL. */
  location: string;
  text: string;
  isUrl: boolean;
  /** The file's bytes, when it was read from disk and they are valid UTF-8 (so `text` encodes back to them). */
  bytes?: Buffer;
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
    const text = await response.text();
    if (text.length > READ_LIMITS.maxFileBytes) return void tooLarge(location, bag);
    return { location, text, isUrl: true };
  }
  try {
    const info = await stat(location);
    if (!info.isFile()) {
      bag.error(
        Codes.fileNotFound,
        `${location} is not a regular file.`,
        undefined,
        "Pass the path of a YAML or JSON file.",
      );
      return undefined;
    }
    if (info.size > READ_LIMITS.maxFileBytes) return void tooLarge(location, bag);
    const bytes = await readFile(location);
    return { location, text: bytes.toString("utf8"), isUrl: false, ...(isUtf8(bytes) ? { bytes } : {}) };
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

function tooLarge(location: string, bag: DiagnosticBag): void {
  bag.error(
    Codes.resourceLimit,
    `${location} is larger than ${READ_LIMITS.maxFileBytes / 1024 / 1024} MiB, the largest spec mcp-gen reads.`,
    undefined,
    "Split the spec, or check that this is the right file.",
  );
}

/** The value of YAML (or JSON) text, with yaml's alias limit on; throws on excessive aliases. */
export function yamlValue(document: YAML.Document.Parsed): unknown {
  return document.toJS({ maxAliasCount: READ_LIMITS.maxAliasCount });
}

/**
 * Parses YAML text for swagger-parser (files reached by `$ref`), with the same alias limit as the
 * spec itself; errors are thrown (swagger-parser reports them as bundling errors).
 */
export function parseYamlText(text: string): unknown {
  const document = YAML.parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0) throw new Error(document.errors[0]!.message.split("\n")[0]);
  return yamlValue(document);
}

/** Reports a document whose nesting ran the parser out of stack; returns no value. */
function tooDeep(source: SourceText, bag: DiagnosticBag): undefined {
  bag.error(
    Codes.resourceLimit,
    `${source.location} nests too deeply to be parsed.`,
    undefined,
    `Specs may nest at most ${READ_LIMITS.maxDepth} levels.`,
  );
  return undefined;
}

/** Parses JSON or YAML text; syntax errors become diagnostics with a line and column. */
export function parseDocument(source: SourceText, bag: DiagnosticBag): unknown {
  return parseText(source, bag)?.value;
}

/** A parsed document, and whether it is a tree: no node reachable by two paths (YAML aliases share nodes). */
export interface ParsedText {
  value: unknown;
  tree: boolean;
}

/** {@link parseDocument}, saying whether the value is a tree (JSON's always is); undefined after an error. */
export function parseText(source: SourceText, bag: DiagnosticBag): ParsedText | undefined {
  const looksJson = extname(source.location).toLowerCase() === ".json" || /^\s*\{/.test(source.text);
  if (looksJson) {
    try {
      return { value: JSON.parse(source.text), tree: true };
    } catch {
      // Fall through: YAML is a superset of JSON and reports positions precisely.
    }
  }
  const value = parseYamlDocument(source, bag);
  return value === undefined ? undefined : { value, tree: false };
}

/** The value of YAML text; syntax errors and exceeded limits become diagnostics (and undefined). */
function parseYamlDocument(source: SourceText, bag: DiagnosticBag): unknown {
  let doc: YAML.Document.Parsed;
  try {
    doc = YAML.parseDocument(source.text, { uniqueKeys: false, prettyErrors: true });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return tooDeep(source, bag);
  }
  if (doc.errors.length > 0) {
    // The first error only: the parser's later ones mostly follow from it (a wrong indentation
    // breaks every line after it), and they change once it is fixed.
    const [error] = doc.errors as [YAML.YAMLError];
    const pos = error.linePos?.[0];
    const message = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    bag.error(
      Codes.parseFailed,
      `${source.location}${pos ? `:${pos.line}:${pos.col}` : ""}: ${message}`,
      undefined,
      "Fix the YAML/JSON syntax at that line (the parser stops at its first error).",
    );
    return undefined;
  }
  try {
    return yamlValue(doc);
  } catch (error) {
    if (error instanceof RangeError) {
      return tooDeep(source, bag);
    }
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      bag.error(
        Codes.resourceLimit,
        `${source.location}: YAML aliases expand past the limit (${READ_LIMITS.maxAliasCount} weighted alias uses): ${error.message}`,
        undefined,
        "Write the repeated parts out, or use $ref instead of YAML anchors and aliases for large shared parts.",
      );
      return undefined;
    }
    throw error;
  }
}
