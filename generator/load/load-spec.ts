import { resolve as resolvePath } from "node:path";
import type SwaggerParserType from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { Codes, DiagnosticBag } from "../diagnostics.js";
import { resolvePointer } from "../pointer.js";
import { isUrl, parseDocument, readSource } from "./read-document.js";
import { validationFindings } from "./validate.js";
import { collectRefs } from "./walk-refs.js";

/** The OpenAPI family a document belongs to. */
export type SpecVersion = "2.0" | "3.0" | "3.1";

/** Output of the load stage: one self-contained document (local `$ref`s only). */
export interface LoadedSpec {
  /** Where the spec was read from. */
  location: string;
  version: SpecVersion;
  /** The bundled document; every `$ref` in it is local (`#/...`). */
  document: Record<string, unknown>;
}

/** Options of the load stage. */
export interface LoadOptions {
  /** Allow reading the spec and its `$ref`s over HTTP(S). Off by default. */
  allowRemote?: boolean;
  /**
   * Validate against the OpenAPI schema (findings become warnings). Default true; `generate` passes
   * false and validates beside the later stages instead (see validate.ts).
   */
  validate?: boolean;
}

/** Detects the OpenAPI family, or records why the document is not one. */
function detectVersion(document: Record<string, unknown>, bag: DiagnosticBag): SpecVersion | undefined {
  if (document.swagger !== undefined) {
    if (String(document.swagger) === "2.0") return "2.0";
    bag.error(Codes.unsupportedVersion, `Unsupported Swagger version "${String(document.swagger)}".`, "#/swagger", "Only Swagger 2.0 and OpenAPI 3.0/3.1 are supported.");
    return undefined;
  }
  if (typeof document.openapi === "string") {
    if (/^3\.0(\.|$)/.test(document.openapi)) return "3.0";
    if (/^3\.1(\.|$)/.test(document.openapi)) return "3.1";
    if (/^3\.\d+/.test(document.openapi)) {
      bag.warn(Codes.unsupportedVersion, `OpenAPI ${document.openapi} is read as 3.1.`, "#/openapi");
      return "3.1";
    }
    bag.error(Codes.unsupportedVersion, `Unsupported OpenAPI version "${document.openapi}".`, "#/openapi", "Only Swagger 2.0 and OpenAPI 3.0/3.1 are supported.");
    return undefined;
  }
  bag.error(
    Codes.notOpenApi,
    "This document is not an OpenAPI description: it has neither an `openapi` nor a `swagger` field.",
    "#",
    'Add `openapi: 3.1.0` (or `swagger: "2.0"`) at the top, or check that you passed the right file.',
  );
  return undefined;
}

/** Records every local `$ref` that points nowhere; returns whether external refs exist. */
function checkRefs(document: unknown, allowRemote: boolean, bag: DiagnosticBag): boolean {
  let external = false;
  const resolves = new Map<string, boolean>(); // a ref is usually written many times
  for (const site of collectRefs(document)) {
    if (site.ref.startsWith("#")) {
      let found = resolves.get(site.ref);
      if (found === undefined) resolves.set(site.ref, (found = resolvePointer(document, site.ref) !== undefined));
      if (!found) {
        bag.error(
          Codes.refUnresolved,
          `$ref "${site.ref}" points to nothing in this document.`,
          site.at,
          "Define the target or fix the reference (JSON pointers are case-sensitive; `/` in a name is written `~1`).",
        );
      }
    } else if (isUrl(site.ref) && !allowRemote) {
      bag.error(
        Codes.remoteRefBlocked,
        `$ref "${site.ref}" is on the network; remote references are off by default.`,
        site.at,
        "Pass --allow-remote to resolve it, or download the file and refer to it by relative path.",
      );
    } else {
      external = true;
    }
  }
  return external;
}

/** Adds swagger-parser's schema validation failures as warnings. */
async function validateDocument(document: Record<string, unknown>, bag: DiagnosticBag): Promise<void> {
  for (const finding of await validationFindings(structuredClone(document))) bag.add(finding);
}

/**
 * Load stage: reads and parses the spec, checks references, bundles external files into one
 * document, and validates it. Errors in `bag` mean generation cannot continue.
 */
export async function loadSpec(location: string, options: LoadOptions, bag: DiagnosticBag): Promise<LoadedSpec | undefined> {
  const allowRemote = options.allowRemote ?? false;
  const absolute = isUrl(location) ? location : resolvePath(location);
  const source = await readSource(absolute, allowRemote, bag);
  if (!source) return undefined;
  const parsed = parseDocument(source, bag);
  if (parsed === undefined) return undefined;
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    bag.error(Codes.notOpenApi, "The spec's top level must be an object.", "#");
    return undefined;
  }
  let document = parsed as Record<string, unknown>;
  const version = detectVersion(document, bag);
  if (!version) return undefined;

  const hasExternal = checkRefs(document, allowRemote, bag);
  if (bag.hasErrors) return undefined;
  if (hasExternal) {
    try {
      const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
      const bundled = await SwaggerParser.bundle(absolute, structuredClone(document) as unknown as OpenAPI.Document, {
        resolve: { http: allowRemote ? {} : false, external: true },
      } as SwaggerParserType.Options);
      document = bundled as unknown as Record<string, unknown>;
    } catch (error) {
      bag.error(Codes.refUnresolved, `Could not bundle external $refs: ${(error as Error).message.split("\n")[0]}`, undefined, "Check that every referenced file exists relative to the spec.");
      return undefined;
    }
  }
  if (options.validate !== false) await validateDocument(document, bag);
  return { location: absolute, version, document };
}
