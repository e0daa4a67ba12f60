/**
 * The view of a meta tool that calls one operation per call (`call_operation` on the search
 * surface): each call's input names the operation, and its result is shown in that operation's
 * own view (table, card or form), whose further calls (pages, a form sent) go through the same
 * meta tool; an operation without a view shows its JSON.
 */
import type { ViewSpec } from "../view-choice.js";
import { heading, isObject, rawResult, type ToolResult } from "./dom.js";
import type { CallTool } from "./table.js";

/** What each kind of view does with the tool's input and result. */
export interface View {
  setInput(args: Record<string, unknown>): void;
  show(result: ToolResult): void;
}

/** Makes the view of `spec` in `root`, calling its tool through `call`. */
export type MakeView = (root: HTMLElement, spec: ViewSpec, call: CallTool) => View;

/** One meta tool's view: the view of the operation the current call names. */
export class OperationView implements View {
  private inner: View | undefined;
  private operation: string | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly spec: ViewSpec,
    private readonly callMeta: CallTool,
    private readonly make: MakeView,
  ) {}

  /** The meta tool's input: the operation it calls (its view made) and that operation's arguments. */
  setInput(args: Record<string, unknown>): void {
    const { nameArgument, argumentsArgument } = this.spec.operationCall!;
    const name = args[nameArgument];
    const inner = typeof name === "string" ? this.spec.views?.[name] : undefined;
    this.operation = typeof name === "string" ? name : undefined;
    if (!inner) {
      this.inner = undefined;
      return;
    }
    const call: CallTool = (operationArgs) =>
      this.callMeta({ [nameArgument]: name, [argumentsArgument]: operationArgs });
    this.inner = this.make(this.root, inner, call);
    const operationArgs = args[argumentsArgument];
    this.inner.setInput(isObject(operationArgs) ? operationArgs : {});
  }

  /** The result, in the operation's view; as JSON when the operation has none. */
  show(result: ToolResult): void {
    if (this.inner) return this.inner.show(result);
    this.root.replaceChildren(...heading(this.operation ?? this.spec.title, this.spec.tool), rawResult(result));
  }
}
