/**
 * Diagnostics: every problem the generator finds in a spec, with a stable code, the JSON pointer
 * into the spec where it was found, and a hint on what to do. Only `error` stops generation.
 */

/** How bad a finding is. `error` prevents generation; the others are reported and generation goes on. */
export type Severity = "error" | "warning" | "info";

/** One finding about the input spec or the generation. */
export interface Diagnostic {
  /** Stable code, e.g. `MG101`; documented in docs/reference/diagnostics.md. */
  code: string;
  severity: Severity;
  message: string;
  /** JSON pointer into the spec as a URI fragment, e.g. `#/paths/~1pets/get`. */
  pointer?: string;
  /** For findings in the output folder's files (the user's code): the file, relative to the folder, `/`-separated. */
  file?: string;
  /** 1-based line and column in `file`. */
  line?: number;
  column?: number;
  /** The tool the finding concerns, when one is known. */
  tool?: string;
  /** What the user can do about it. */
  help?: string;
}

/** The catalogue of diagnostic codes, so a code always means the same thing. */
export const Codes = {
  fileNotFound: "MG001",
  parseFailed: "MG002",
  notOpenApi: "MG003",
  unsupportedVersion: "MG004",
  refUnresolved: "MG005",
  remoteRefBlocked: "MG006",
  resourceLimit: "MG007",
  refFileRefused: "MG008",
  specInvalid: "MG101",
  noOperations: "MG102",
  pathParamUndeclared: "MG103",
  paramIgnored: "MG104",
  mcpHeaderInvalid: "MG105",
  nameChanged: "MG106",
  nameCollision: "MG107",
  patternInvalid: "MG108",
  mediaTypeUnsupported: "MG109",
  paramInvalid: "MG110",
  serverUrlRelative: "MG111",
  securityInvalid: "MG112",
  securityUnknownScheme: "MG113",
  paginationInvalid: "MG114",
  operationSkipped: "MG115",
  booleanSchema: "MG116",
  toolListingInvalid: "MG117",
  framingHeaderParam: "MG118",
  typeContradictsUnion: "MG119",
  overlayTargetEmpty: "MG120",
  overlayInvalid: "MG121",
  extensionInvalid: "MG122",
  outputDirNotEmpty: "MG201",
  packageNameInvalid: "MG202",
  handEdited: "MG203",
  outputPathInvalid: "MG204",
  customCodeBroken: "MG205",
  featureUnknown: "MG206",
  targetRefused: "MG207",
} as const;

/** Thrown when generation cannot go on; carries every diagnostic gathered so far. */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly diagnostics: Diagnostic[],
  ) {
    super(message);
    this.name = "GenerationError";
  }
}

/** Collects diagnostics during one run, in the order they were found. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  add(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  /** Inserts diagnostics found later at `index`, where they belong in pipeline order. */
  insert(index: number, diagnostics: Diagnostic[]): void {
    this.items.splice(index, 0, ...diagnostics);
  }

  error(code: string, message: string, pointer?: string, help?: string): void {
    this.add({ code, severity: "error", message, pointer, help });
  }

  warn(code: string, message: string, pointer?: string, help?: string): void {
    this.add({ code, severity: "warning", message, pointer, help });
  }

  info(code: string, message: string, pointer?: string, help?: string): void {
    this.add({ code, severity: "info", message, pointer, help });
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /** Throws a GenerationError when an error was recorded. */
  throwIfErrors(stage: string): void {
    if (this.hasErrors) {
      const count = this.items.filter((d) => d.severity === "error").length;
      throw new GenerationError(`${stage} failed with ${count} error(s)`, this.items);
    }
  }
}
