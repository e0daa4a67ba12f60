/**
 * The table view: a list result as rows (the spec's columns, sortable by each header), every row's
 * whole record behind its own toggle, and the previous and next pages through the tool's cursor.
 */
import type { ViewSpec } from "../view-choice.js";
import { shownData } from "../result-notice.js";
import { at, el, heading, isObject, noticeNode, rawResult, recordNode, scalarText, type ToolResult } from "./dom.js";

/** Calls the view's tool with these arguments (through the host). */
export type CallTool = (args: Record<string, unknown>) => Promise<ToolResult>;

/** One table on the page: its rows, sort and pages. */
export class TableView {
  private rows: Record<string, unknown>[] = [];
  /** Why the rows are shown as they are, for a result in the fallback shape (shown as received, shortened). */
  private notice: string | undefined;
  private sort: { key: string; descending: boolean } | undefined;
  private input: Record<string, unknown> = {};
  /** The cursors of the pages before this one (the first page's is undefined), and the next page's. */
  private previous: Array<string | undefined> = [];
  private cursor: string | undefined;
  private next: string | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly spec: ViewSpec,
    private readonly call: CallTool,
  ) {}

  /** The arguments the tool was called with (the next pages keep them). */
  setInput(args: Record<string, unknown>): void {
    this.input = args;
    const cursor = this.spec.cursorArgument && args[this.spec.cursorArgument];
    this.cursor = typeof cursor === "string" ? cursor : undefined;
  }

  /** Shows a result: its rows, or its JSON when it holds none. */
  show(result: ToolResult): void {
    const { data, notice } = shownData(result, this.spec.fallbackKey);
    // A body in the fallback shape is the list itself (a wrapped list) or holds it where the documented shape says.
    const rows = notice !== undefined && Array.isArray(data) ? data : at(data, this.spec.rows ?? []);
    this.notice = notice;
    if (result.isError || !Array.isArray(rows)) {
      this.root.replaceChildren(...heading(this.spec.title, this.spec.operation), rawResult(result));
      return;
    }
    this.rows = rows.map((row) => (isObject(row) ? row : { value: row }));
    const next = isObject(result.structuredContent) ? result.structuredContent.nextCursor : undefined;
    this.next = typeof next === "string" ? next : undefined;
    this.render();
  }

  private render(): void {
    const count = `${this.rows.length} row${this.rows.length === 1 ? "" : "s"}`;
    const table = el("table", {}, el("thead", {}, this.headerRow()), el("tbody", {}, ...this.bodyRows()));
    this.root.replaceChildren(
      ...heading(this.spec.title, `${this.spec.operation} · ${count}`),
      ...(this.notice !== undefined ? [noticeNode(this.notice)] : []),
      el("div", { class: "scroll" }, table),
      ...this.pager(),
    );
  }

  private columns(): string[] {
    return (this.spec.columns ?? []).map((column) => column.key);
  }

  /** The header: one sort button per column (aria-sort says the order), and the details column. */
  private headerRow(): HTMLElement {
    const cells = this.columns().map((key) => {
      const sorted = this.sort?.key === key ? (this.sort.descending ? "descending" : "ascending") : "none";
      const arrow = sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : "";
      const button = el("button", { type: "button" }, key, el("span", { "aria-hidden": "true" }, arrow));
      button.addEventListener("click", () => this.sortBy(key));
      return el("th", { scope: "col", "aria-sort": sorted }, button);
    });
    return el("tr", {}, ...cells, el("th", { scope: "col" }, el("span", { class: "help" }, "Details")));
  }

  /** Each row, and under it its whole record, hidden until its toggle is pressed. */
  private bodyRows(): HTMLElement[] {
    const columns = this.columns();
    return this.sorted().flatMap((row, index) => {
      const detailsId = `row-details-${index}`;
      const toggle = el("button", { type: "button", "aria-expanded": "false", "aria-controls": detailsId }, "More");
      const details = el(
        "tr",
        { id: detailsId, hidden: "" },
        el("td", { colspan: String(columns.length + 1) }, recordNode(row)),
      );
      toggle.addEventListener("click", () => {
        const open = toggle.getAttribute("aria-expanded") !== "true";
        toggle.setAttribute("aria-expanded", String(open));
        toggle.textContent = open ? "Less" : "More";
        details.hidden = !open;
      });
      const cells = columns.map((key) => valueCell(row[key]));
      return [el("tr", {}, ...cells, el("td", {}, toggle)), details];
    });
  }

  private sortBy(key: string): void {
    this.sort = { key, descending: this.sort?.key === key && !this.sort.descending };
    this.render();
    this.root.querySelector<HTMLButtonElement>(`th[aria-sort]:not([aria-sort="none"]) button`)?.focus();
  }

  /** The rows in the chosen order: numbers by value, other values as text; absent values last. */
  private sorted(): Record<string, unknown>[] {
    const sort = this.sort;
    if (!sort) return this.rows;
    const compare = (a: unknown, b: unknown): number => {
      if (a === undefined || a === null) return b === undefined || b === null ? 0 : 1;
      if (b === undefined || b === null) return -1;
      const order = typeof a === "number" && typeof b === "number" ? a - b : scalarText(a).localeCompare(scalarText(b));
      return sort.descending ? -order : order;
    };
    return [...this.rows].sort((a, b) => compare(a[sort.key], b[sort.key]));
  }

  /** Previous and next page buttons, where the tool pages. */
  private pager(): HTMLElement[] {
    const argument = this.spec.cursorArgument;
    if (argument === undefined || (this.next === undefined && this.previous.length === 0)) return [];
    const back = el("button", { type: "button", class: "action" }, "Previous page");
    back.disabled = this.previous.length === 0;
    back.addEventListener("click", () => void this.page(this.previous.pop(), false));
    const forward = el("button", { type: "button", class: "action" }, "Next page");
    forward.disabled = this.next === undefined;
    forward.addEventListener("click", () => void this.page(this.next, true));
    return [el("nav", { class: "pager", "aria-label": "Pages" }, back, forward)];
  }

  /** Calls the tool for the page at `cursor` (undefined: the first). */
  private async page(cursor: string | undefined, forward: boolean): Promise<void> {
    const argument = this.spec.cursorArgument!;
    if (forward) this.previous.push(this.cursor);
    const { [argument]: _old, ...rest } = this.input;
    const args = cursor === undefined ? rest : { ...rest, [argument]: cursor };
    this.cursor = cursor;
    try {
      this.show(await this.call(args));
      // Keyboard users stay on the pager: the same button, or the other one when this end has none.
      const buttons = [...this.root.querySelectorAll<HTMLButtonElement>("nav.pager button")];
      const same = buttons[forward ? 1 : 0];
      (same && !same.disabled ? same : buttons.find((button) => !button.disabled))?.focus();
    } catch (error) {
      this.root.append(
        el("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error)),
      );
    }
  }
}

/**
 * One cell: the value as text; a value the result does not carry (absent, null, empty text) as a
 * dash that says so, never an empty cell that reads like a rendering fault.
 */
function valueCell(value: unknown): HTMLElement {
  const text = scalarText(value);
  if (text !== "") return el("td", {}, text);
  return el(
    "td",
    { class: "missing" },
    el("span", { title: "no value in this result", "aria-label": "no value" }, "—"),
  );
}
