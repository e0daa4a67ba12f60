/**
 * The `x-mcp-*` extensions: what a spec (or an overlay, see load/overlay.ts) says about a tool that
 * OpenAPI has no field for. Read and checked here; a value that cannot be used is a warning (MG122)
 * with its pointer and is ignored, so a typo never costs the server a tool.
 *
 * On an operation: `x-mcp-name`, `x-mcp-title`, `x-mcp-description`, `x-mcp-annotations`,
 * `x-mcp-hidden`, `x-mcp-toolset`, `x-mcp-confirm`, and the defaults of the tool's results:
 * `x-mcp-fields` (the `_fields` a call without them gets) and `x-mcp-result-budget` (its token
 * budget). On a tag of the top-level `tags` list: `x-mcp-hidden` (every operation with that tag)
 * and `x-mcp-toolset` (the default of its operations).
 */
import type { DiagnosticBag } from "../../shared/diagnostics.js";
import { Codes } from "../../shared/diagnostics.js";
import { childPointer } from "../../shared/pointer.js";
import { isRecord, MAX_RESULT_BUDGET_TOKENS, MIN_RESULT_BUDGET_TOKENS } from "../../shared/contract.js";

/** Hints a tool's annotations may be given (MCP `ToolAnnotations` without the `Hint` suffix). */
export interface McpAnnotationOverrides {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

/** What the `x-mcp-*` extensions of an operation (and its tags) ask for; each field absent when not given. */
export interface McpOverrides {
  /** `x-mcp-name`: the tool's name (wins over the name lock). */
  name?: string;
  /** `x-mcp-title`: the tool's title (default: the summary). */
  title?: string;
  /** `x-mcp-description`: the tool's description, instead of summary and description. */
  description?: string;
  /** `x-mcp-annotations`: hints that replace those the HTTP method gives. */
  annotations?: McpAnnotationOverrides;
  /** `x-mcp-hidden` (the operation's, or one of its tags'): no tool is generated. */
  hidden?: boolean;
  /** `x-mcp-toolset` (the operation's, else its first tag's that has one): the toolset it is listed in. */
  toolset?: string;
  /** `x-mcp-confirm`: the user confirms each call (elicitation) before it reaches the API. */
  confirm?: boolean;
  /** `x-mcp-fields`: the `_fields` a call that gives none gets (checked against the response's paths when planned). */
  fields?: string[];
  /** `x-mcp-result-budget`: tokens this tool's results may take, instead of the server's budget. */
  resultBudget?: number;
}

/** The names `x-mcp-annotations` takes, each with its MCP name too (`readOnly` or `readOnlyHint`). */
const ANNOTATION_KEYS: ReadonlyArray<keyof McpAnnotationOverrides> = [
  "readOnly",
  "destructive",
  "idempotent",
  "openWorld",
];

/** Longest `x-mcp-title` (characters): a title is one short line. */
const TITLE_MAX = 120;
/** A toolset name: what `--toolsets` and `?toolsets=` can spell (no comma, no space). */
const TOOLSET = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/**
 * A tool name every MCP client accepts and the name lock keeps: up to 64 of A-Z, a-z, 0-9, `_`, `-`,
 * starting and ending with a letter or digit (the planner checks uniqueness).
 */
const TOOL_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62}[A-Za-z0-9])?$/;
/** Paths an `x-mcp-fields` may name at most (what the runtime takes in one `_fields`). */
const MAX_FIELDS = 100;
/** The result budget's range in tokens: what the server's `--result-budget` takes. */
const RESULT_BUDGET_RANGE = { min: MIN_RESULT_BUDGET_TOKENS, max: MAX_RESULT_BUDGET_TOKENS } as const;

type Obj = Record<string, unknown>;

/** Reads one extension of `source` with `read`, recording MG122 when it returns a reason instead of a value. */
function readExtension<T>(
  source: Obj,
  key: string,
  at: string,
  bag: DiagnosticBag,
  read: (value: unknown) => { value: T } | string,
): T | undefined {
  if (!Object.hasOwn(source, key)) return undefined;
  const result = read(source[key]);
  if (typeof result !== "string") return result.value;
  bag.warn(Codes.extensionInvalid, `${key} is ignored: ${result}.`, childPointer(at, key), EXTENSIONS_HELP);
  return undefined;
}

const EXTENSIONS_HELP =
  "See the x-mcp extensions in docs/guide/tool-surface.md: names [A-Za-z0-9_-] up to 64, text non-empty, annotations and hidden/confirm booleans, fields a list of paths, a result budget an integer of tokens.";

const asBoolean = (value: unknown) => (typeof value === "boolean" ? { value } : "it must be true or false");

function asText(max: number) {
  return (value: unknown) =>
    typeof value === "string" && value.trim() !== "" && value.length <= max
      ? { value: value.trim() }
      : `it must be non-empty text of at most ${max} characters`;
}

const asName = (value: unknown) =>
  typeof value === "string" && TOOL_NAME.test(value)
    ? { value }
    : "a tool name is 1 to 64 characters of A-Z, a-z, 0-9, _ and -, starting and ending with a letter or digit";

const asToolset = (value: unknown) =>
  typeof value === "string" && TOOLSET.test(value)
    ? { value }
    : "a toolset is a word of letters, digits, _, . and - (no commas or spaces)";

const asFields = (value: unknown) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.length <= MAX_FIELDS &&
  value.every((path) => typeof path === "string" && path.trim() !== "")
    ? { value: value as string[] }
    : `it must be a list of 1 to ${MAX_FIELDS} paths such as "id" or "items[].name"`;

const asResultBudget = (value: unknown) =>
  Number.isInteger(value) &&
  (value as number) >= RESULT_BUDGET_RANGE.min &&
  (value as number) <= RESULT_BUDGET_RANGE.max
    ? { value: value as number }
    : `it must be a whole number of tokens from ${RESULT_BUDGET_RANGE.min} to ${RESULT_BUDGET_RANGE.max}`;

function asAnnotations(value: unknown): { value: McpAnnotationOverrides } | string {
  if (!isRecord(value)) return "it must be an object of boolean hints (readOnly, destructive, idempotent, openWorld)";
  const hints: McpAnnotationOverrides = {};
  for (const [key, hint] of Object.entries(value)) {
    const name = ANNOTATION_KEYS.find((known) => key === known || key === `${known}Hint`);
    if (!name) return `"${key}" is not a hint (readOnly, destructive, idempotent, openWorld)`;
    if (typeof hint !== "boolean") return `"${key}" must be true or false`;
    hints[name] = hint;
  }
  return { value: hints };
}

/** The tag-level extensions, by tag name: read once per document. */
export interface TagExtensions {
  hidden: Set<string>;
  toolsets: Map<string, string>;
}

/** `x-mcp-hidden` and `x-mcp-toolset` of the top-level `tags` list. */
export function readTagExtensions(doc: Obj, bag: DiagnosticBag): TagExtensions {
  const result: TagExtensions = { hidden: new Set(), toolsets: new Map() };
  (Array.isArray(doc.tags) ? doc.tags : []).forEach((tag, index) => {
    if (!isRecord(tag) || typeof tag.name !== "string") return;
    const at = childPointer("#/tags", index);
    if (readExtension(tag, "x-mcp-hidden", at, bag, asBoolean)) result.hidden.add(tag.name);
    const toolset = readExtension(tag, "x-mcp-toolset", at, bag, asToolset);
    if (toolset !== undefined) result.toolsets.set(tag.name, toolset);
  });
  return result;
}

/** The overrides of one operation (its own extensions first, then its tags'); undefined when it has none. */
export function readMcpOverrides(
  op: Obj,
  at: string,
  tags: readonly string[],
  tagExtensions: TagExtensions,
  bag: DiagnosticBag,
): McpOverrides | undefined {
  const name = readExtension(op, "x-mcp-name", at, bag, asName);
  const title = readExtension(op, "x-mcp-title", at, bag, asText(TITLE_MAX));
  const description = readExtension(op, "x-mcp-description", at, bag, asText(Number.POSITIVE_INFINITY));
  const annotations = readExtension(op, "x-mcp-annotations", at, bag, asAnnotations);
  const hidden =
    readExtension(op, "x-mcp-hidden", at, bag, asBoolean) ?? tags.some((tag) => tagExtensions.hidden.has(tag));
  const toolset =
    readExtension(op, "x-mcp-toolset", at, bag, asToolset) ??
    tags.map((tag) => tagExtensions.toolsets.get(tag)).find((set) => set !== undefined);
  const confirm = readExtension(op, "x-mcp-confirm", at, bag, asBoolean);
  const fields = readExtension(op, "x-mcp-fields", at, bag, asFields);
  const resultBudget = readExtension(op, "x-mcp-result-budget", at, bag, asResultBudget);
  const overrides: McpOverrides = {
    ...(name !== undefined ? { name } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(hidden ? { hidden } : {}),
    ...(toolset !== undefined ? { toolset } : {}),
    ...(confirm ? { confirm } : {}),
    ...(fields !== undefined ? { fields } : {}),
    ...(resultBudget !== undefined ? { resultBudget } : {}),
  };
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}
