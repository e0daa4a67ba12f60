/**
 * The workspace file (`mcp-gen.workspace.yaml`): a fleet of servers, each a spec, an output folder
 * and an npm name plus the options of the single command, and workspace-wide `defaults`. It is
 * checked against the JSON Schema published in the package (`schemas/mcp-gen.workspace.schema.json`)
 * with ajv, then for what a schema cannot say (unique names and folders, folders inside the
 * workspace, URLs only with `allowRemote`, valid npm names). Every problem is reported with the
 * entry's path in the file and its line and column; a file with any problem yields no workspace, so
 * nothing is generated from half a fleet.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { isMap, isSeq, LineCounter, parseDocument, type Document } from "yaml";
import type { GenerateOptions } from "../../pipeline/generate.js";
import { isUrl } from "../../pipeline/load/read-document.js";
import { packageRoot } from "../../shared/package-root.js";
import { parseAuthOverride } from "../../pipeline/plan/credentials.js";

/** The default workspace file name, looked for in the current folder. */
export const WORKSPACE_FILE = "mcp-gen.workspace.yaml";

/** Where the JSON Schema of the workspace file is published, relative to the package root. */
export const WORKSPACE_SCHEMA_PATH = "schemas/mcp-gen.workspace.schema.json";

/** Diagnostic codes of the workspace file (documented in docs/reference/diagnostics.md). */
export const WorkspaceCodes = {
  unreadable: "MG301",
  syntax: "MG302",
  schema: "MG303",
  duplicate: "MG304",
  invalidValue: "MG305",
  outsideWorkspace: "MG306",
} as const;

/** One problem in the workspace file, located by its path in the file and its line and column. */
export interface WorkspaceDiagnostic {
  code: string;
  severity: "error";
  message: string;
  /** The file as the user named it. */
  file: string;
  /** The entry's path in the file, e.g. `servers[2].out` (empty for the whole file). */
  path: string;
  /** 1-based line and column of that entry, when it is in the file. */
  line?: number;
  column?: number;
}

/** The workspace file could not be read or has problems; nothing was done. */
export class WorkspaceError extends Error {
  readonly diagnostics: WorkspaceDiagnostic[];

  /** The diagnostics are kept in the order of the file (line, then column). */
  constructor(message: string, diagnostics: WorkspaceDiagnostic[]) {
    super(message);
    this.diagnostics = [...diagnostics].sort(
      (a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0),
    );
    this.name = "WorkspaceError";
  }
}

/** Options of the single command that an entry or `defaults` may set. */
interface EntryOptions {
  repository?: string;
  license?: string;
  allowRemote?: boolean;
  auth?: string;
  envPrefix?: string;
  surface?: "all" | "search" | "code" | "auto";
  outputSchema?: boolean;
  bump?: boolean;
  readOnly?: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  includeOperations?: string[];
  excludeOperations?: string[];
}

/** The file as written (after the schema check). */
interface WorkspaceFileData {
  defaults?: EntryOptions & { scope?: string };
  servers: Array<EntryOptions & { spec: string; out: string; name: string; mcpName?: string; refRoot?: string }>;
}

/** One server of the workspace, resolved: paths absolute, defaults applied, name scoped. */
export interface WorkspaceServer {
  /** Position in the file (`servers[index]`). */
  index: number;
  /** npm package name (with the default scope when the entry's name had none). */
  name: string;
  /** The spec as written in the file, and resolved (absolute path, or URL). */
  specAsWritten: string;
  spec: string;
  /** Output folder, absolute, and relative to the workspace folder with `/` separators. */
  out: string;
  outRelative: string;
  /** The surface the server serves by default (`auto` when not set). */
  surface: "all" | "search" | "code" | "auto";
  /** Everything `generate` takes for this server except spec, output folder and mode. */
  options: Omit<GenerateOptions, "spec" | "outDir" | "check" | "planOnly" | "onStage" | "toolLock">;
}

/** A loaded, valid workspace. */
export interface Workspace {
  /** Absolute path of the workspace file, and its folder (the npm workspace root). */
  file: string;
  dir: string;
  scope?: string;
  servers: WorkspaceServer[];
}

/** npm's rules for package names (lower case, URL-safe, optional scope). */
const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

let validator: ReturnType<Ajv["compile"]> | undefined;

/** The published schema, compiled once. */
function validateSchema(data: unknown): ErrorObject[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), WORKSPACE_SCHEMA_PATH), "utf8")) as Record<
      string,
      unknown
    >;
    validator = new Ajv({ allErrors: true, strict: true, verbose: true }).compile(schema);
  }
  return validator(data) ? [] : [...(validator.errors ?? [])];
}

/** `/servers/2/out` → `["servers", 2, "out"]`. */
function pointerPath(pointer: string): Array<string | number> {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** `["servers", 2, "out"]` → `servers[2].out`. */
export function displayPath(path: Array<string | number>): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`)).join("");
}

/** Locates entries of the parsed YAML document by their path. */
class Locator {
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /** Line and column of the node at `path`, or of its key when `key` (an unknown property), or of the nearest parent that exists. */
  at(path: Array<string | number>, key?: string): { line: number; column: number } | undefined {
    let node: unknown = this.doc.contents;
    let offset = (node as { range?: [number, number, number] } | null)?.range?.[0];
    const steps = key === undefined ? path : [...path, key];
    for (const [i, step] of steps.entries()) {
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === step);
        // An unknown key points at the key itself; anything else at its value.
        next = pair ? (key !== undefined && i === steps.length - 1 ? pair.key : (pair.value ?? pair.key)) : undefined;
      } else if (isSeq(node) && typeof step === "number") next = node.items[step];
      if (!next) break;
      node = next;
      offset = (node as { range?: [number, number, number] }).range?.[0] ?? offset;
    }
    if (offset === undefined) return undefined;
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }
}

/** The message of one schema violation, in words. */
function schemaMessage(error: ErrorObject): { path: Array<string | number>; key?: string; message: string } {
  const path = pointerPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return {
        path,
        key: String(params.additionalProperty),
        message: `unknown option "${String(params.additionalProperty)}"`,
      };
    case "required":
      return { path, message: `"${String(params.missingProperty)}" is required` };
    case "enum":
      return {
        path,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "pattern":
      return { path, message: `${JSON.stringify(readPatternValue(error))} does not match ${String(params.pattern)}` };
    default:
      return { path, message: error.message ?? error.keyword };
  }
}

function readPatternValue(error: ErrorObject): unknown {
  return (error as ErrorObject & { data?: unknown }).data;
}

/**
 * Reads and checks a workspace file; throws a {@link WorkspaceError} listing every problem (each
 * with its path in the file, line and column) when the file cannot be used as a whole.
 */
export function loadWorkspace(file: string): Workspace {
  const label = file;
  const absolute = resolve(file);
  const problems: WorkspaceDiagnostic[] = [];
  const problem = (
    code: string,
    message: string,
    path: Array<string | number>,
    where?: { line: number; column: number },
  ): void => {
    problems.push({
      code,
      severity: "error",
      message,
      file: label,
      path: displayPath(path),
      ...(where ? { line: where.line, column: where.column } : {}),
    });
  };
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problem(
      WorkspaceCodes.unreadable,
      code === "ENOENT"
        ? `no workspace file ${label} (create one, or name it: mcp-gen workspace build path/to/${WORKSPACE_FILE})`
        : `cannot read ${label}: ${String(error)}`,
      [],
    );
    throw new WorkspaceError(`Cannot read the workspace file ${label}`, problems);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  for (const error of doc.errors) {
    const { line, col } = lines.linePos(error.pos[0]);
    problem(WorkspaceCodes.syntax, `YAML: ${error.message.split("\n")[0]}`, [], { line, column: col });
  }
  if (problems.length > 0) throw new WorkspaceError(`The workspace file ${label} is not valid YAML`, problems);
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const locate = new Locator(doc, lines);
  for (const error of validateSchema(data)) {
    const { path, key, message } = schemaMessage(error);
    problem(WorkspaceCodes.schema, message, key === undefined ? path : [...path, key], locate.at(path, key));
  }
  if (problems.length > 0)
    throw new WorkspaceError(`The workspace file ${label} has ${problems.length} problem(s)`, problems);
  const workspace = resolveWorkspace(data as WorkspaceFileData, absolute, (code, message, path) =>
    problem(code, message, path, locate.at(path)),
  );
  if (problems.length > 0)
    throw new WorkspaceError(`The workspace file ${label} has ${problems.length} problem(s)`, problems);
  return workspace;
}

/** `a/b\c` relative to the workspace folder, with `/` separators. */
function relativePosix(dir: string, path: string): string {
  return relative(dir, path).split(sep).join("/");
}

/** Applies defaults, resolves paths and checks what the schema cannot: the servers as `generate` takes them. */
function resolveWorkspace(
  data: WorkspaceFileData,
  file: string,
  problem: (code: string, message: string, path: Array<string | number>) => void,
): Workspace {
  const dir = dirname(file);
  const defaults = data.defaults ?? {};
  const names = new Map<string, number>();
  const outs: Array<{ out: string; index: number }> = [];
  const servers: WorkspaceServer[] = [];
  for (const [index, entry] of data.servers.entries()) {
    const at = (key: string): Array<string | number> => ["servers", index, key];
    const pick = <K extends keyof EntryOptions>(key: K): EntryOptions[K] =>
      entry[key] !== undefined ? entry[key] : defaults[key];
    const name = entry.name.startsWith("@") || !defaults.scope ? entry.name : `${defaults.scope}/${entry.name}`;
    if (!NPM_NAME.test(name) || name.length > 214)
      problem(
        WorkspaceCodes.invalidValue,
        `"${name}" is not a valid npm package name (lower case letters, digits, - . _ ~, an optional @scope/)`,
        at("name"),
      );
    const twin = names.get(name);
    if (twin !== undefined)
      problem(WorkspaceCodes.duplicate, `the name ${name} is also the name of servers[${twin}]`, at("name"));
    else names.set(name, index);
    const allowRemote = pick("allowRemote") ?? false;
    const remote = isUrl(entry.spec);
    if (remote && !allowRemote)
      problem(
        WorkspaceCodes.invalidValue,
        `the spec ${entry.spec} is a URL: set allowRemote: true (on the entry or in defaults) to read specs from the network`,
        at("spec"),
      );
    const out = resolve(dir, entry.out);
    const outRelative = relativePosix(dir, out);
    if (isAbsolute(entry.out) || outRelative === "" || outRelative === ".." || outRelative.startsWith("../")) {
      problem(
        WorkspaceCodes.outsideWorkspace,
        `out must be a folder inside the workspace folder (the npm workspace root), not ${entry.out}`,
        at("out"),
      );
    } else if (outRelative.split("/").includes("node_modules") || outRelative.split("/")[0] === ".mcp-gen") {
      problem(WorkspaceCodes.invalidValue, `out ${entry.out} is inside node_modules or .mcp-gen`, at("out"));
    }
    for (const other of outs) {
      const a = other.out + sep;
      const b = out + sep;
      if (a.startsWith(b) || b.startsWith(a))
        problem(
          WorkspaceCodes.duplicate,
          `out ${entry.out} ${other.out === out ? "is also" : "overlaps"} the folder of servers[${other.index}]`,
          at("out"),
        );
    }
    outs.push({ out, index });
    const auth = pick("auth");
    // The schema's pattern and the command line's parser agree; this keeps the type honest.
    const parsedAuth = auth === undefined ? undefined : parseAuthOverride(auth);
    const filter = {
      ...(pick("includeTags") ? { includeTags: pick("includeTags")! } : {}),
      ...(pick("excludeTags") ? { excludeTags: pick("excludeTags")! } : {}),
      ...(pick("includeOperations") ? { includeOperations: pick("includeOperations")! } : {}),
      ...(pick("excludeOperations") ? { excludeOperations: pick("excludeOperations")! } : {}),
      ...(pick("readOnly") ? { readOnly: true } : {}),
    };
    const repository = pick("repository");
    const license = pick("license");
    const envPrefix = pick("envPrefix");
    const outputSchema = pick("outputSchema");
    const bump = pick("bump");
    const surface = pick("surface") ?? "auto";
    servers.push({
      index,
      name,
      specAsWritten: entry.spec,
      spec: remote ? entry.spec : resolve(dir, entry.spec),
      out,
      outRelative,
      surface,
      options: {
        packageName: name,
        allowRemote,
        ...(repository !== undefined ? { repository } : {}),
        ...(entry.mcpName !== undefined ? { mcpName: entry.mcpName } : {}),
        ...(license !== undefined ? { license } : {}),
        ...(entry.refRoot !== undefined ? { refRoot: resolve(dir, entry.refRoot) } : {}),
        ...(parsedAuth ? { auth: parsedAuth } : {}),
        ...(envPrefix !== undefined ? { envPrefix } : {}),
        ...(outputSchema !== undefined ? { outputSchemas: outputSchema } : {}),
        ...(bump !== undefined ? { bump } : {}),
        ...(Object.keys(filter).length > 0 ? { filter } : {}),
        ...(surface !== "auto" ? { defaultSurface: surface } : {}),
      },
    });
  }
  return { file, dir, ...(defaults.scope ? { scope: defaults.scope } : {}), servers };
}

/** One diagnostic as the CLI prints it: `mcp-gen.workspace.yaml:12:5 error MG303 servers[2].out: must be string`. */
export function formatWorkspaceDiagnostic(d: WorkspaceDiagnostic): string {
  const where = d.line !== undefined ? `${d.file}:${d.line}:${d.column}` : d.file;
  return `${where} ${d.severity} ${d.code}${d.path ? ` ${d.path}` : ""}: ${d.message}`;
}
