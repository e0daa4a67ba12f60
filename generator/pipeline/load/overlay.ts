/**
 * OpenAPI Overlay 1.0 (`--overlay`): documents of actions that change a spec the user does not own
 * (rename a tool, rewrite a description, hide a tag) and are applied again at every generation.
 *
 * Targets are RFC 9535 JSONPath, evaluated by `jsonpath-rfc9535` (no dependencies, the standard the
 * Overlay specification names). The action semantics are written here: the one Overlay package on
 * npm (`openapi-overlays-js` 0.2.0) pulls a CLI, a formatter and the pre-RFC `jsonpath` package,
 * and reports no pointer for an action that matched nothing.
 */
import { createHash } from "node:crypto";
import { resolve as resolvePath } from "node:path";
import { exec, type JsonValue } from "jsonpath-rfc9535";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { childPointer, pointer } from "../../shared/pointer.js";
import { getOwn, isRecord, setOwn } from "../../shared/contract.js";
import { isUrl, parseDocument, readSource } from "./read-document.js";

/** One action of an overlay. */
export interface OverlayAction {
  /** RFC 9535 JSONPath of the nodes it changes. */
  target: string;
  description?: string;
  /** Merged into each selected object, appended to each selected array. */
  update?: unknown;
  /** Removes each selected node from its parent. */
  remove: boolean;
  /** Its pointer in the overlay document (`#/actions/3`). */
  at: string;
}

/** An overlay document, read and checked. */
export interface OverlayDocument {
  /** Where it was read from (as given). */
  location: string;
  title: string;
  version: string;
  actions: OverlayAction[];
  /** sha256 (hex) of its text as read (empty for a document checked from a value). */
  sha256: string;
}

const OVERLAY_VERSION = /^1\.0\.\d+$/;

/** Records a problem with an overlay document (MG121, an error: the overlay cannot be applied as written). */
function invalid(bag: DiagnosticBag, file: string, message: string, at: string, help?: string): void {
  bag.add({ code: Codes.overlayInvalid, severity: "error", message, pointer: at, file, ...(help ? { help } : {}) });
}

/** Reads and checks an overlay file (YAML or JSON, within the spec's limits); undefined after an error. */
export async function readOverlay(
  location: string,
  allowRemote: boolean,
  bag: DiagnosticBag,
): Promise<OverlayDocument | undefined> {
  const source = await readSource(isUrl(location) ? location : resolvePath(location), allowRemote, bag);
  if (!source) return undefined;
  const parsed = parseDocument(source, bag);
  const overlay = parsed === undefined ? undefined : checkOverlay(parsed, location, bag);
  return overlay && { ...overlay, sha256: createHash("sha256").update(source.text).digest("hex") };
}

/** Checks the shape of an Overlay 1.0 document (its JSON Schema's rules); undefined after an error. */
export function checkOverlay(value: unknown, location: string, bag: DiagnosticBag): OverlayDocument | undefined {
  const errors = bag.items.length;
  if (!isRecord(value)) {
    invalid(bag, location, "An overlay must be an object with `overlay`, `info` and `actions`.", "#");
    return undefined;
  }
  if (typeof value.overlay !== "string" || !OVERLAY_VERSION.test(value.overlay))
    invalid(
      bag,
      location,
      `\`overlay\` must be an Overlay 1.0 version such as "1.0.0" (found ${JSON.stringify(value.overlay) ?? "nothing"}).`,
      "#/overlay",
    );
  const info = isRecord(value.info) ? value.info : {};
  if (typeof info.title !== "string" || typeof info.version !== "string")
    invalid(bag, location, "`info` must have a string `title` and `version`.", "#/info");
  const actions = Array.isArray(value.actions) ? value.actions : [];
  if (actions.length === 0) invalid(bag, location, "`actions` must be a non-empty list.", "#/actions");
  const checked = actions.flatMap((raw, index) => checkAction(raw, pointer("actions", index), location, bag));
  if (bag.items.length > errors) return undefined;
  return { location, title: info.title as string, version: info.version as string, actions: checked, sha256: "" };
}

/** One action, or nothing after recording why it is not one. */
function checkAction(raw: unknown, at: string, file: string, bag: DiagnosticBag): OverlayAction[] {
  if (!isRecord(raw) || typeof raw.target !== "string" || !raw.target.startsWith("$")) {
    invalid(bag, file, "An action needs a `target`: a JSONPath starting with `$`.", childPointer(at, "target"));
    return [];
  }
  if (raw.remove !== undefined && typeof raw.remove !== "boolean") {
    invalid(bag, file, "`remove` must be true or false.", childPointer(at, "remove"));
    return [];
  }
  if (raw.remove !== true && raw.update === undefined) {
    invalid(bag, file, "An action needs `update` or `remove: true`.", at);
    return [];
  }
  return [
    {
      target: raw.target,
      ...(typeof raw.description === "string" ? { description: raw.description } : {}),
      ...(raw.update !== undefined ? { update: raw.update } : {}),
      remove: raw.remove === true,
      at,
    },
  ];
}

/** A node a target selected: its parent and its key there (`undefined` parent: the document itself). */
interface Selected {
  value: unknown;
  parent: Record<string, unknown> | unknown[] | undefined;
  key: string | number;
}

/** The nodes `target` selects in `document`, or an error message when the expression is not JSONPath. */
function select(document: Record<string, unknown>, target: string): Selected[] | string {
  const found: Selected[] = [];
  try {
    exec(document as JsonValue, target, (value, path) => {
      let parent: unknown = document;
      for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[step];
      found.push(
        path.length === 0
          ? { value, parent: undefined, key: "" }
          : { value, parent: parent as Record<string, unknown>, key: path[path.length - 1]! },
      );
    });
  } catch (error) {
    return error instanceof Error ? error.message.split("\n")[0]! : String(error);
  }
  return found;
}

/**
 * Applies the overlays in order, each action in order, to `document` (changed in place). An action
 * whose target selects nothing is a warning (MG120) pointing at it; one that cannot apply (a target
 * that is not JSONPath, an update of another type than its target) an error (MG121).
 */
export function applyOverlays(
  document: Record<string, unknown>,
  overlays: readonly OverlayDocument[],
  bag: DiagnosticBag,
): void {
  for (const overlay of overlays) for (const action of overlay.actions) applyAction(document, action, overlay, bag);
}

function applyAction(
  document: Record<string, unknown>,
  action: OverlayAction,
  overlay: OverlayDocument,
  bag: DiagnosticBag,
): void {
  const selected = select(document, action.target);
  const file = overlay.location;
  if (typeof selected === "string") {
    invalid(
      bag,
      file,
      `\`${action.target}\` is not an RFC 9535 JSONPath: ${selected}`,
      childPointer(action.at, "target"),
    );
    return;
  }
  if (selected.length === 0) {
    bag.add({
      code: Codes.overlayTargetEmpty,
      severity: "warning",
      message: `Overlay action${action.description ? ` "${action.description}"` : ""} changes nothing: \`${action.target}\` selects nothing in the spec.`,
      pointer: childPointer(action.at, "target"),
      file,
      help: "The spec may have renamed or removed what it pointed at: update the target (or drop the action).",
    });
    return;
  }
  if (action.remove) return removeAll(selected, action, file, bag);
  for (const node of selected) {
    const problem = mergeInto(node.value, action.update, childPointer(action.at, "update"));
    if (problem) invalid(bag, file, problem.message, problem.at);
  }
}

/** Removes the selected nodes from their parents (array items from the last, so indexes stay right). */
function removeAll(selected: Selected[], action: OverlayAction, file: string, bag: DiagnosticBag): void {
  const items = selected
    .filter((node) => Array.isArray(node.parent))
    .sort((a, b) => (b.key as number) - (a.key as number));
  for (const node of items) (node.parent as unknown[]).splice(node.key as number, 1);
  for (const node of selected) {
    if (node.parent === undefined)
      invalid(bag, file, "An action cannot remove the whole document.", childPointer(action.at, "target"));
    else if (!Array.isArray(node.parent)) delete node.parent[node.key as string];
  }
}

/**
 * Merges `update` into `target` as Overlay 1.0 says: into an object, its properties (objects merged
 * recursively, arrays concatenated, other values replaced); into an array, `update` is appended.
 * Returns the problem when the two do not fit (an object update of a string, …).
 */
function mergeInto(target: unknown, update: unknown, at: string): { message: string; at: string } | undefined {
  if (Array.isArray(target)) {
    target.push(structuredClone(update));
    return undefined;
  }
  if (!isRecord(target)) return { message: "An update's target must be an object or an array.", at };
  if (!isRecord(update)) return { message: "The update of an object must be an object of properties.", at };
  for (const [key, value] of Object.entries(update)) {
    const current = getOwn(target, key);
    if (isRecord(current) && isRecord(value)) {
      const problem = mergeInto(current, value, childPointer(at, key));
      if (problem) return problem;
    } else if (Array.isArray(current) && Array.isArray(value)) current.push(...structuredClone(value));
    else if (current !== undefined && current !== null && kind(current) !== kind(value))
      return {
        message: `The update's \`${key}\` (${kind(value)}) does not fit the target's (${kind(current)}).`,
        at: childPointer(at, key),
      };
    else setOwn(target, key, structuredClone(value));
  }
  return undefined;
}

/** A value's kind for the merge rules: object, array or primitive. */
function kind(value: unknown): "object" | "array" | "primitive" {
  return Array.isArray(value) ? "array" : isRecord(value) ? "object" : "primitive";
}
