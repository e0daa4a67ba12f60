/**
 * The views' DOM helpers. Spec text and result values reach the page only as text nodes and
 * attribute values (never as markup), so nothing in them can run.
 */
import { identifyingValue } from "../field-names.js";
import { shownData } from "../result-notice.js";

/** A tool result as the host hands it to the view. */
export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** An element with text, attributes and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** Whether `value` is a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A scalar as text (empty for null and absent values). */
export function scalarText(value: unknown): string {
  return value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The view's heading: the tool's title and the operation. */
export function heading(title: string, caption: string): Node[] {
  return [el("h1", {}, title), el("p", { class: "caption" }, caption)];
}

/**
 * A record as a definition list: scalars first, then each nested object or list folded under a
 * summary that names it (its identifying value, or its length); `depth` bounds the folding.
 */
export function recordNode(record: Record<string, unknown>, depth = 0): HTMLElement {
  const list = el("dl");
  const nested: HTMLElement[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== "object" || value === null || depth >= 4) {
      list.append(el("dt", {}, key), el("dd", {}, scalarText(value)));
      continue;
    }
    const name = Array.isArray(value)
      ? `${value.length} item${value.length === 1 ? "" : "s"}`
      : identifyingValue(value as Record<string, unknown>);
    const summary = el("summary", {}, name === undefined ? key : `${key}: ${name}`);
    nested.push(el("details", {}, summary, valueNode(value, depth + 1)));
  }
  const container = el("div", {}, list, ...nested);
  return container;
}

/** Any value: a record, a list of values, or a scalar. */
export function valueNode(value: unknown, depth = 0): Node {
  if (isObject(value)) return recordNode(value, depth);
  if (Array.isArray(value)) return el("ol", {}, ...value.map((item) => el("li", {}, valueNode(item, depth + 1))));
  return document.createTextNode(scalarText(value));
}

/** A result the view cannot show otherwise: its JSON (or text) as is. */
export function rawResult(result: ToolResult): HTMLElement {
  const text =
    result.structuredContent !== undefined
      ? JSON.stringify(result.structuredContent, null, 2)
      : (result.content ?? []).map((block) => block.text ?? "").join("\n");
  return el("pre", result.isError ? { class: "error", role: "alert" } : {}, text);
}

/** The line that says why a view shows a result as it does (shown as received, shortened). */
export function noticeNode(notice: string): HTMLElement {
  return el("p", { class: "caption", role: "note" }, notice);
}

/** A result as a record (with the notice of a fallback shape), or its raw text or JSON. */
export function resultNodes(result: ToolResult, fallbackKey: string | undefined): Node[] {
  const { data, notice } = shownData(result, fallbackKey);
  if (result.isError || !isObject(data)) return [rawResult(result)];
  return [...(notice !== undefined ? [noticeNode(notice)] : []), recordNode(data)];
}

/** The value at `path` in `value`. */
export function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((current, key) => (isObject(current) ? current[key] : undefined), value);
}
