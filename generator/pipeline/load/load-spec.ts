import { createHash } from "node:crypto";
import { resolve as resolvePath } from "node:path";
import type SwaggerParserType from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { resolvePointer } from "../../shared/pointer.js";
import { READ_LIMITS } from "./limits.js";
import { isUrl, parseText, parseYamlText, readSource } from "./read-document.js";
import { confinedFileResolver, refFile, refRoot, refuseRefFile, type RefFileRefusal } from "./ref-files.js";
import { applyOverlays, readOverlay, type OverlayDocument } from "./overlay.js";
import { validationFindings } from "./validate.js";
import { scanDocument, type RefSite, type ScanOptions } from "./walk-refs.js";

/** The OpenAPI family a document belongs to. */
export type SpecVersion = "2.0" | "3.0" | "3.1";

/** Output of the load stage: one self-contained document (local `$ref`s only). */
export interface LoadedSpec {
  /** Where the spec was read from. */
  location: string;
  version: SpecVersion;
  /** The bundled document; every `$ref` in it is local (`#/...`). */
  document: Record<string, unknown>;
  /** sha256 (hex) of the spec's text as read (the main file; recorded in the manifest). */
  sha256: string;
  /** The overlays applied (`LoadOptions.overlays`), in order: where each was read and its sha256. */
  overlays?: Array<{ location: string; sha256: string }>;
}

/** Options of the load stage. */
export interface LoadOptions {
  /** Allow reading the spec and its `$ref`s over HTTP(S). Off by default. */
  allowRemote?: boolean;
  /** The folder file `$ref`s may read from (`--ref-root`); default: the spec's own folder. */
  refRoot?: string;
  /**
   * Validate against the OpenAPI schema (findings become warnings). Default true; `generate` passes
   * false and validates later, where its main thread would wait (see generate.ts).
   */
  validate?: boolean;
  /** Overlay 1.0 documents (`--overlay`) applied in order to the bundled document. */
  overlays?: readonly string[];
}

/** Detects the OpenAPI family, or records why the document is not one. */
function detectVersion(document: Record<string, unknown>, bag: DiagnosticBag): SpecVersion | undefined {
  if (document.swagger !== undefined) {
    if (String(document.swagger) === "2.0") return "2.0";
    bag.error(
      Codes.unsupportedVersion,
      `Unsupported Swagger version "${String(document.swagger)}".`,
      "#/swagger",
      "Only Swagger 2.0 and OpenAPI 3.0/3.1 are supported.",
    );
    return undefined;
  }
  if (typeof document.openapi === "string") {
    if (/^3\.0(\.|$)/.test(document.openapi)) return "3.0";
    if (/^3\.1(\.|$)/.test(document.openapi)) return "3.1";
    if (/^3\.\d+/.test(document.openapi)) {
      bag.warn(Codes.unsupportedVersion, `OpenAPI ${document.openapi} is read as 3.1.`, "#/openapi");
      return "3.1";
    }
    bag.error(
      Codes.unsupportedVersion,
      `Unsupported OpenAPI version "${document.openapi}".`,
      "#/openapi",
      "Only Swagger 2.0 and OpenAPI 3.0/3.1 are supported.",
    );
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

const REF_ROOT_HELP =
  "File $refs may only read regular files in the spec's folder tree (their contents are published with the server); pass --ref-root <dir> to allow a wider folder.";

/** Where file `$ref`s are resolved from and confined to; absent for a spec read from a URL. */
interface RefFiles {
  /** Absolute path of the spec. */
  spec: string;
  /** The folder they must stay in. */
  root: string;
}

/**
 * Records every local `$ref` that points nowhere, every remote one without `allowRemote`, and every
 * file one that may not be read (outside the ref root, special, too big); returns whether external
 * refs exist.
 */
async function checkRefs(
  document: unknown,
  sites: RefSite[],
  allowRemote: boolean,
  files: RefFiles | undefined,
  bag: DiagnosticBag,
): Promise<boolean> {
  let external = false;
  const refused = new Map<string, RefFileRefusal>(); // a file is usually referred to many times
  const resolves = new Map<string, boolean>(); // a ref is usually written many times
  for (const site of sites) {
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
      if (!files || isUrl(site.ref)) continue;
      const named = refFile(site.ref, files.spec);
      if ("unreadable" in named) {
        bag.error(
          Codes.refFileRefused,
          `$ref "${site.ref}" cannot be read: ${named.unreadable}.`,
          site.at,
          "Refer to a file by a relative path (or to http(s) with --allow-remote).",
        );
        continue;
      }
      const path = named.path;
      if (!refused.has(path)) refused.set(path, await refuseRefFile(path, files.root));
      const refusal = refused.get(path);
      if (refusal?.missing) {
        bag.error(
          Codes.refUnresolved,
          `$ref "${site.ref}" names ${path}, which does not exist.`,
          site.at,
          "Check the path: file $refs are relative to the file that holds them.",
        );
      } else if (refusal) {
        bag.error(
          Codes.refFileRefused,
          `$ref "${site.ref}" names ${path}, which mcp-gen will not read: ${refusal.reason}.`,
          site.at,
          REF_ROOT_HELP,
        );
      }
    }
  }
  return external;
}

/**
 * The document's `$ref`s (walk-refs.ts `scanDocument`, one walk for both), or undefined when it
 * nests deeper than the limit, recorded as MG007.
 */
function refsWithinLimits(
  document: unknown,
  what: string,
  bag: DiagnosticBag,
  options?: ScanOptions,
): RefSite[] | undefined {
  const { refs, tooDeep } = scanDocument(document, READ_LIMITS.maxDepth, options);
  if (tooDeep === undefined) return refs;
  bag.error(
    Codes.resourceLimit,
    `${what} nests deeper than ${READ_LIMITS.maxDepth} levels.`,
    tooDeep,
    "Flatten the structure (use $ref for shared schemas); no real API needs this depth.",
  );
  return undefined;
}

/** Adds swagger-parser's schema validation failures as warnings. */
async function validateDocument(document: Record<string, unknown>, bag: DiagnosticBag): Promise<void> {
  // validationFindings leaves the document as it is (swagger-parser dereferences its own copy).
  for (const finding of await validationFindings(document)) bag.add(finding);
}

/**
 * Applies the overlays to the bundled document, then checks it as loading checks a spec: within the
 * nesting limit, every `$ref` local and resolved (an overlay may add references). The overlays
 * applied, or undefined after an error.
 */
async function overlaid(
  document: Record<string, unknown>,
  locations: readonly string[],
  allowRemote: boolean,
  bag: DiagnosticBag,
): Promise<OverlayDocument[] | undefined> {
  const overlays: OverlayDocument[] = [];
  for (const location of locations) {
    const overlay = await readOverlay(location, allowRemote, bag);
    if (overlay) overlays.push(overlay);
  }
  if (bag.hasErrors) return undefined;
  applyOverlays(document, overlays, bag);
  const refs = refsWithinLimits(document, "The spec with its overlays", bag);
  if (!refs || bag.hasErrors) return undefined;
  await checkRefs(
    document,
    refs.filter((site) => site.ref.startsWith("#")),
    false,
    undefined,
    bag,
  );
  for (const site of refs.filter((site) => !site.ref.startsWith("#")))
    bag.error(
      Codes.refUnresolved,
      `$ref "${site.ref}" comes from an overlay and names another file; an overlay's references must be local.`,
      site.at,
      "Point it into the spec (`#/components/…`), or add the file $ref to the spec itself.",
    );
  return bag.hasErrors ? undefined : overlays;
}

/**
 * Load stage: reads and parses the spec, checks references, bundles external files into one
 * document, and validates it. Errors in `bag` mean generation cannot continue.
 */
export async function loadSpec(
  location: string,
  options: LoadOptions,
  bag: DiagnosticBag,
): Promise<LoadedSpec | undefined> {
  const allowRemote = options.allowRemote ?? false;
  const absolute = isUrl(location) ? location : resolvePath(location);
  const source = await readSource(absolute, allowRemote, bag);
  if (!source) return undefined;
  const parsed = parseText(source, bag);
  if (parsed === undefined) return undefined;
  const { value, tree } = parsed;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    bag.error(Codes.notOpenApi, "The spec's top level must be an object.", "#");
    return undefined;
  }
  let document = value as Record<string, unknown>;
  const refs = refsWithinLimits(document, "The spec", bag, { tree });
  if (!refs) return undefined;
  const version = detectVersion(document, bag);
  if (!version) return undefined;

  const files = isUrl(absolute) ? undefined : { spec: absolute, root: refRoot(absolute, options.refRoot) };
  const hasExternal = await checkRefs(document, refs, allowRemote, files, bag);
  if (bag.hasErrors) return undefined;
  if (hasExternal) {
    const resolver = files ? confinedFileResolver(files.root) : undefined;
    const yamlLimits: string[] = [];
    const parseYaml = (file: { url: string; data: Buffer | string }) => {
      try {
        return parseYamlText(file.data.toString());
      } catch (error) {
        if (error instanceof ReferenceError || error instanceof RangeError)
          yamlLimits.push(`${file.url}: ${error.message}`);
        throw error;
      }
    };
    try {
      const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
      const bundled = await SwaggerParser.bundle(
        absolute,
        structuredClone(document) as unknown as OpenAPI.Document,
        {
          // Our own file resolver (confined, see ref-files.ts) and YAML parser (alias limit) replace swagger-parser's.
          resolve: {
            http: allowRemote ? {} : false,
            file: false,
            external: true,
            ...(resolver ? { confined: resolver } : {}),
          },
          parse: { yaml: { order: 200, allowEmpty: true, canParse: [".yaml", ".yml", ".json"], parse: parseYaml } },
        } as unknown as SwaggerParserType.Options,
      );
      document = bundled as unknown as Record<string, unknown>;
    } catch (error) {
      // swagger-parser replaces our errors by generic ones: the reasons were kept on the side.
      const refusal = resolver?.refusals[0];
      if (refusal) {
        bag.error(
          Codes.refFileRefused,
          `A referenced file has a $ref to a file mcp-gen will not read: ${refusal}.`,
          undefined,
          REF_ROOT_HELP,
        );
      } else if (yamlLimits.length > 0) {
        bag.error(
          Codes.resourceLimit,
          `A referenced YAML file exceeds a limit: ${yamlLimits[0]}.`,
          undefined,
          "Use $ref instead of YAML anchors and aliases for large shared parts, and flatten deep nesting.",
        );
      } else {
        bag.error(
          Codes.refUnresolved,
          `Could not bundle external $refs: ${(error as Error).message.split("\n")[0]}`,
          undefined,
          "Check that every referenced file exists relative to the spec.",
        );
      }
      return undefined;
    }
    if (!refsWithinLimits(document, "The spec with its referenced files", bag)) return undefined;
  }
  const overlays = options.overlays?.length ? await overlaid(document, options.overlays, allowRemote, bag) : [];
  if (!overlays) return undefined;
  if (options.validate !== false) await validateDocument(document, bag);
  return {
    location: absolute,
    version,
    document,
    // The bytes, when the text encodes back to them: hashing a string encodes it first.
    sha256: createHash("sha256")
      .update(source.bytes ?? source.text)
      .digest("hex"),
    ...(overlays.length > 0 ? { overlays: overlays.map(({ location, sha256 }) => ({ location, sha256 })) } : {}),
  };
}
