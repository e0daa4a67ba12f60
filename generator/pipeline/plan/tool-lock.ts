/**
 * The tool-name lock (`.mcp-gen/tool-names.json` in the output): operation → tool name, so that a
 * regeneration never renames a tool clients already call — not when the spec is reordered, not when
 * operations are added (which could change collision suffixes), not when an `operationId` is renamed.
 * Each entry also keeps the tool's output-schema budget (output-compact.ts): the share a tool gets
 * depends on the API's size when it first appears, and is kept from then on, so operations added
 * elsewhere never change an existing tool's output schema.
 */
import type { OperationIR } from "../ir/ir-types.js";
import { isLockableToolName } from "./names.js";
import { OUTPUT_MIN_NODE_BUDGET, OUTPUT_NODE_BUDGET } from "./output-compact.js";

/** One locked name. */
export interface ToolLockEntry {
  /** `METHOD /path/{}/…`: the route, path parameter names blanked (renaming `{id}` to `{petId}` is not a new operation). */
  operation: string;
  /** The operation's `operationId` when it had one. */
  operationId?: string;
  /** The tool name this operation keeps. */
  tool: string;
  /** Typed nodes its output schema may have (output-compact.ts), kept across regenerations. */
  outputBudget?: number;
}

/** The lock file's content. */
export interface ToolLock {
  lockVersion: 1;
  /** Sorted by route, then operationId. */
  tools: ToolLockEntry[];
}

/** The route key of an operation: `GET /pets/{}`. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
}

/** Builds the lock for planned tools. */
export function buildToolLock(
  tools: Array<{ name: string; operationKey: string; operationId?: string; outputBudget?: number }>,
): ToolLock {
  const entries = tools.map((t) => ({
    operation: t.operationKey,
    ...(t.operationId ? { operationId: t.operationId } : {}),
    tool: t.name,
    ...(t.outputBudget !== undefined ? { outputBudget: t.outputBudget } : {}),
  }));
  entries.sort((a, b) =>
    a.operation === b.operation
      ? (a.operationId ?? "") < (b.operationId ?? "")
        ? -1
        : 1
      : a.operation < b.operation
        ? -1
        : 1,
  );
  return { lockVersion: 1, tools: entries };
}

/** Checks a lock read from disk (it may have been edited by hand); drops entries it cannot use. */
export function parseToolLock(value: unknown): ToolLock | undefined {
  if (
    !value ||
    typeof value !== "object" ||
    (value as ToolLock).lockVersion !== 1 ||
    !Array.isArray((value as ToolLock).tools)
  )
    return undefined;
  const tools = (value as ToolLock).tools
    .filter(
      (e): e is ToolLockEntry =>
        !!e && typeof e.operation === "string" && typeof e.tool === "string" && isLockableToolName(e.tool),
    )
    .map((e) => {
      const { outputBudget, ...rest } = e;
      return isOutputBudget(outputBudget) ? { ...rest, outputBudget } : rest;
    });
  return { lockVersion: 1, tools };
}

/** Whether a lock's budget is one the planner could have given (an integer within the bounds). */
function isOutputBudget(value: unknown): value is number {
  return (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= OUTPUT_MIN_NODE_BUDGET &&
    value <= OUTPUT_NODE_BUDGET
  );
}

/**
 * The lock entry of each operation, or undefined for operations the lock does not know. An entry
 * matches by `operationId` and route first, then by `operationId` alone (so moving an operation to
 * another path keeps its name), then by route alone (so a renamed `operationId` keeps its name).
 * Each entry is used at most once.
 */
export function lockedEntries(operations: OperationIR[], lock: ToolLock | undefined): Array<ToolLockEntry | undefined> {
  if (!lock) return operations.map(() => undefined);
  const unused = new Set(lock.tools);
  const result: Array<ToolLockEntry | undefined> = operations.map(() => undefined);
  const take = (index: number, entry: ToolLockEntry | undefined) => {
    if (!entry) return;
    unused.delete(entry);
    result[index] = entry;
  };
  operations.forEach((op, i) => {
    if (op.operationId)
      take(
        i,
        [...unused].find((e) => e.operationId === op.operationId && e.operation === operationKey(op.method, op.path)),
      );
  });
  operations.forEach((op, i) => {
    if (op.operationId && result[i] === undefined)
      take(
        i,
        [...unused].find((e) => e.operationId === op.operationId),
      );
  });
  operations.forEach((op, i) => {
    if (result[i] === undefined)
      take(
        i,
        [...unused].find((e) => e.operation === operationKey(op.method, op.path)),
      );
  });
  return result;
}
