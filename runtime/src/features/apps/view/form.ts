/**
 * The form view: one labelled input per argument of a change (selects for enums, number inputs
 * with their bounds, a checkbox or a yes/no select for booleans, one line per item for lists,
 * JSON for objects), the description as each input's help. Sending checks the required fields
 * first, asks for a confirmation when the operation is destructive, calls the tool through the
 * host and shows the record it returns, or the error.
 */
import type { FormField, ViewSpec } from "../view-choice.js";
import { el, heading, resultNodes, scalarText, type ToolResult } from "./dom.js";
import type { CallTool } from "./table.js";

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** One form on the page. */
export class FormView {
  private readonly controls = new Map<string, Control>();
  private readonly errors = new Map<string, HTMLElement>();
  private readonly outcome = el("section", { "aria-live": "polite", "aria-label": "Result" });
  private readonly form = el("form", { novalidate: "" });

  constructor(
    root: HTMLElement,
    private readonly spec: ViewSpec,
    private readonly call: CallTool,
  ) {
    const fields = spec.fields ?? [];
    fields.forEach((field, index) => this.form.append(this.fieldNode(field, index)));
    const send = el(
      "button",
      { type: "submit", class: spec.destructive ? "action danger" : "action" },
      spec.destructive ? "Review and send" : "Send",
    );
    this.form.append(send);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    root.replaceChildren(...heading(spec.title, spec.operation), this.form, this.outcome);
  }

  /** Fills the inputs with the arguments the tool was called with. */
  setInput(args: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(args)) {
      const control = this.controls.get(name);
      if (!control) continue;
      if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value === true;
      else if (Array.isArray(value) && control instanceof HTMLTextAreaElement && control.dataset.list === "true")
        control.value = value.map(scalarText).join("\n");
      else
        control.value =
          typeof value === "object" && value !== null ? JSON.stringify(value, null, 2) : scalarText(value);
    }
  }

  /** Shows a result of the tool: the record it returned, or the error. */
  show(result: ToolResult): void {
    const title = result.isError ? "Error" : "Result";
    this.outcome.replaceChildren(el("h2", { class: "caption" }, title), ...resultNodes(result, this.spec.fallbackKey));
  }

  /** A label, the input, its help and its error line. */
  private fieldNode(field: FormField, index: number): HTMLElement {
    const id = `field-${index}`;
    const control = this.control(field, id);
    const described: string[] = [];
    const parts: Node[] = [el("label", { for: id }, field.name + (field.required ? " *" : ""))];
    parts.push(control);
    const hint = [
      field.description,
      field.format && `format: ${field.format}`,
      field.type === "list" ? "one value per line" : undefined,
      field.type === "json" ? "JSON" : undefined,
    ]
      .filter((text): text is string => typeof text === "string" && text !== "")
      .join(" · ");
    if (hint) {
      parts.push(el("span", { id: `${id}-help`, class: "help" }, hint));
      described.push(`${id}-help`);
    }
    const error = el("span", { id: `${id}-error`, class: "error", role: "alert" });
    parts.push(error);
    described.push(`${id}-error`);
    control.setAttribute("aria-describedby", described.join(" "));
    if (field.required) control.setAttribute("aria-required", "true");
    this.controls.set(field.name, control);
    this.errors.set(field.name, error);
    return el("div", { class: "field" }, ...parts);
  }

  /** The input of a field, by its type. */
  private control(field: FormField, id: string): Control {
    if (field.enum && field.enum.length > 0) {
      const options = [el("option", { value: "" }, field.required ? "Choose…" : "(none)")];
      for (const value of field.enum) options.push(el("option", { value: String(value) }, String(value)));
      return el("select", { id, name: field.name }, ...options);
    }
    if (field.type === "boolean")
      return field.required
        ? el("input", { id, name: field.name, type: "checkbox" })
        : el(
            "select",
            { id, name: field.name },
            el("option", { value: "" }, "(none)"),
            el("option", { value: "true" }, "yes"),
            el("option", { value: "false" }, "no"),
          );
    if (field.type === "json" || field.type === "list") {
      const area = el("textarea", { id, name: field.name, rows: "3" });
      if (field.type === "list") area.dataset.list = "true";
      return area;
    }
    const input = el("input", { id, name: field.name, type: inputType(field) });
    if (field.minimum !== undefined) input.min = String(field.minimum);
    if (field.maximum !== undefined) input.max = String(field.maximum);
    if (field.type === "integer") input.step = "1";
    if (field.default !== undefined) input.placeholder = scalarText(field.default);
    return input;
  }

  /** Checks every field; sends (after the confirmation, for a destructive operation) when all are valid. */
  private submit(): void {
    const args: Record<string, unknown> = {};
    let firstInvalid: Control | undefined;
    for (const field of this.spec.fields ?? []) {
      const control = this.controls.get(field.name)!;
      const parsed = readField(field, control);
      const problem = "error" in parsed ? parsed.error : undefined;
      this.errors.get(field.name)!.textContent = problem ?? "";
      control.setAttribute("aria-invalid", String(problem !== undefined));
      if (problem !== undefined) firstInvalid ??= control;
      else if ("value" in parsed && parsed.value !== undefined) args[field.name] = parsed.value;
    }
    if (firstInvalid) return void firstInvalid.focus();
    if (this.spec.destructive) this.confirm(args);
    else void this.send(args);
  }

  /** The confirmation of a destructive operation: nothing is sent until it is confirmed. */
  private confirm(args: Record<string, unknown>): void {
    const yes = el("button", { type: "button", class: "action danger" }, "Confirm");
    const no = el("button", { type: "button", class: "action" }, "Cancel");
    const panel = el(
      "div",
      { class: "confirm", role: "alertdialog", "aria-label": "Confirm" },
      el("p", {}, `${this.spec.operation} is destructive. Send it?`),
      el("div", { class: "pager" }, yes, no),
    );
    yes.addEventListener("click", () => void this.send(args));
    no.addEventListener("click", () => this.outcome.replaceChildren());
    this.outcome.replaceChildren(panel);
    no.focus();
  }

  private async send(args: Record<string, unknown>): Promise<void> {
    this.outcome.replaceChildren(el("p", {}, "Sending…"));
    try {
      this.show(await this.call(args));
    } catch (error) {
      this.outcome.replaceChildren(
        el("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error)),
      );
    }
  }
}

/** The HTML input type for a scalar field's type and format. */
function inputType(field: FormField): string {
  if (field.type === "number" || field.type === "integer") return "number";
  const byFormat: Record<string, string> = {
    email: "email",
    uri: "url",
    url: "url",
    date: "date",
    password: "password",
  };
  return (field.format && byFormat[field.format]) ?? "text";
}

/** A field's value as the tool takes it, nothing when it is empty, or what is wrong with it. */
function readField(field: FormField, control: Control): { value: unknown } | { error: string } {
  if (control instanceof HTMLInputElement && control.type === "checkbox") return { value: control.checked };
  const text = control.value.trim();
  if (text === "") return field.required ? { error: `${field.name} is required` } : { value: undefined };
  if (field.type === "number" || field.type === "integer") {
    const number = Number(text);
    if (!Number.isFinite(number) || (field.type === "integer" && !Number.isInteger(number)))
      return { error: `${field.name} must be ${field.type === "integer" ? "a whole number" : "a number"}` };
    return { value: number };
  }
  if (field.type === "boolean") return { value: text === "true" };
  if (field.enum && field.enum.length > 0)
    return { value: field.enum.find((option) => String(option) === text) ?? text };
  if (field.type === "list")
    return {
      value: text
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    };
  if (field.type === "json") {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return { error: `${field.name} must be JSON` };
    }
  }
  return { value: text };
}
