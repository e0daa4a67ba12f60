/** The card view: one record, titled by its identifying field, scalars listed, nested objects folded. */
import type { ViewSpec } from "../view-choice.js";
import { shownData } from "../result-notice.js";
import { identifyingValue } from "../field-names.js";
import { el, heading, isObject, noticeNode, rawResult, recordNode, type ToolResult } from "./dom.js";

/** Renders a result of `spec`'s tool into `root`. */
export function renderCard(root: HTMLElement, spec: ViewSpec, result: ToolResult): void {
  const { data: record, notice } = shownData(result, spec.fallbackKey);
  if (result.isError || !isObject(record)) {
    root.replaceChildren(...heading(spec.title, spec.operation), rawResult(result));
    return;
  }
  const title = identifyingValue(record) ?? spec.title;
  root.replaceChildren(
    ...heading(title, `${spec.title} · ${spec.operation}`),
    ...(notice !== undefined ? [noticeNode(notice)] : []),
    el("section", { "aria-label": title }, recordNode(record)),
  );
}
