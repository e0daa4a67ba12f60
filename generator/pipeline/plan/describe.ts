/**
 * Tool descriptions: the operation's summary and description, the deprecation notice, and a length
 * a client can afford to send to the model for every tool. A longer text is cut at a paragraph or
 * sentence end and points to the operation's documentation resource, which keeps the full text.
 */
import type { OperationIR } from "../ir/ir-types.js";

/** Longest tool description (characters). Most APIs stay far below (GitHub: 90 % under 940). */
export const TOOL_DESCRIPTION_MAX = 1_500;

const DEPRECATED = "Deprecated: this operation may be removed from the API.";

/** The planned description and, when it had to be cut, the full text. */
export interface DescriptionPlan {
  description: string;
  documentation?: string;
}

/**
 * Summary and description (without repeating the summary), never empty; deprecation marked; links
 * as plain text (see {@link modelText}). When that changed the text or it had to be cut,
 * `documentation` keeps the original for the operation's documentation resource.
 */
export function describeOperation(op: OperationIR, toolName: string, max = TOOL_DESCRIPTION_MAX): DescriptionPlan {
  const parts = [op.summary, op.description].filter((p): p is string => p !== undefined);
  if (parts.length === 2 && parts[1]!.startsWith(parts[0]!)) parts.shift();
  const original = parts.join("\n\n") || `${op.method.toUpperCase()} ${op.path}`;
  const text = modelText(original) || original;
  const suffix = op.deprecated ? `\n\n${DEPRECATED}` : "";
  const documentation = text === original ? {} : { documentation: original + suffix };
  if (text.length + suffix.length <= max) return { description: text + suffix, ...documentation };
  const pointer = `… (full text: resource openapi://operations/${toolName})`;
  return {
    description: cutAtBoundary(text, max - suffix.length - pointer.length - 1) + pointer + suffix,
    documentation: original + suffix,
  };
}

/**
 * Markdown links keep their text and lose their URL: they point at documentation a model calling
 * the tool cannot follow, and on APIs like GitHub the URLs alone are 7 % of all input schemas.
 */
export function plainLinks(text: string): string {
  return text.replace(/\[([^\]\n]+)\]\((?:https?:\/\/|\/)[^)\s]*\)/g, "$1");
}

const LINK = String.raw`["“]?\[[^\]\n]+\]\((?:https?:\/\/|\/)[^)\s]*\)["”]?`;
/** Sentences that only send the reader elsewhere: `For more information, see "[…](…)."`, `See [...](...) for details.` */
const DOC_REFERENCE = new RegExp(
  String.raw`\s*(?:For more (?:information|details|info)\b[^.\n\[]*?,? see ${LINK}\.?["”]?|See ${LINK}(?: for (?:more )?(?:information|details)[^.\n]*)?\.["”]?)(?=\s|$)`,
  "g",
);

/**
 * Text for the model calling a tool (tool and argument descriptions): sentences that only point to
 * web documentation are dropped, other links keep their text (see {@link plainLinks}). A model
 * cannot follow those links while choosing and calling tools; on GitHub they were 160 KB of
 * `tools/list`. The operation's documentation resource keeps the text with its links.
 */
export function modelText(text: string): string {
  // Both patterns need a link's `](`; big APIs repeat the same argument descriptions on most tools.
  if (!text.includes("](")) return text.trim();
  let plain = modelTexts.get(text);
  if (plain === undefined) {
    if (modelTexts.size >= MODEL_TEXTS_MAX) modelTexts.clear();
    modelTexts.set(text, (plain = plainLinks(text.replace(DOC_REFERENCE, "")).trim()));
  }
  return plain;
}

/** {@link modelText}'s answers by text, for the texts with links (at most {@link MODEL_TEXTS_MAX}: then it starts over). */
const modelTexts = new Map<string, string>();
const MODEL_TEXTS_MAX = 50_000;

/** The longest prefix of `text` within `limit` that ends a paragraph, else a sentence, else a word. */
export function cutAtBoundary(text: string, limit: number): string {
  const head = text.slice(0, Math.max(0, limit));
  const paragraph = head.lastIndexOf("\n\n");
  if (paragraph >= limit / 2) return head.slice(0, paragraph).trimEnd();
  const sentence = Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n"));
  if (sentence >= limit / 2) return head.slice(0, sentence + 1);
  const word = head.lastIndexOf(" ");
  return (word >= limit / 2 ? head.slice(0, word) : head).trimEnd();
}
