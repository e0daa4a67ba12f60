/**
 * What a view shows of a result and the notice it puts above it. A result in its output schema's
 * fallback shape, `{ [fallbackKey]: { reason, body, problems, items? } }`, is shown from its `body`,
 * with a notice that says why the runtime put it there: the API's response did not match its
 * documented shape (`reason: "response"`, upstream/result.ts; also a fallback without `reason`), the
 * result's size budget shortened it (`"budget"`), or the caller's `_fields` left out what the shape
 * requires (`"fields"`), both upstream/result-shape.ts; `items: { shown, total }` when the budget
 * left items out. Imports nothing: the views' browser bundle uses it too.
 */

/** The parts of a tool result this reads. */
export interface ShownResult {
  structuredContent?: unknown;
  isError?: boolean;
}

/** The data a view shows, and the notice above it when the result is in the fallback shape. */
export interface ShownData {
  data: unknown;
  notice?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A result's data: its structured content, or, in the fallback shape, the body there, with the
 * notice that says why (an error result is its structured content as is).
 */
export function shownData(result: ShownResult, fallbackKey: string | undefined): ShownData {
  const structured = result.structuredContent;
  const fallback = fallbackKey !== undefined && isObject(structured) ? structured[fallbackKey] : undefined;
  if (!result.isError && isObject(fallback) && "body" in fallback)
    return { data: fallback.body, notice: fallbackNotice(fallback) };
  return { data: structured };
}

/** The notice of a fallback shape, from its `reason` and `items`. */
export function fallbackNotice(fallback: Record<string, unknown>): string {
  const items = itemsShown(fallback.items);
  const shortened =
    items && `Shortened to fit the result's size budget: ${items}; ask for a smaller page for the rest.`;
  if (fallback.reason === "budget")
    return (
      shortened ??
      "Shortened to fit the result's size budget: some fields or long values are left out; ask for fewer fields to see them whole."
    );
  const why =
    fallback.reason === "fields"
      ? "Shown with the chosen fields, which leave out some that its documented shape requires."
      : "The response did not match its documented shape: shown as received.";
  return shortened ? `${why} ${shortened}` : why;
}

/** "12 of 50 items are shown", from `{ shown, total }`; undefined for anything else. */
function itemsShown(items: unknown): string | undefined {
  if (!isObject(items) || typeof items.shown !== "number" || typeof items.total !== "number") return undefined;
  const { shown, total } = items;
  return `${shown} of ${total} item${total === 1 ? "" : "s"} ${shown === 1 ? "is" : "are"} shown`;
}
