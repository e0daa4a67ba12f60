/**
 * Escaping of spec text for each non-TypeScript format the generator writes. Spec authors control
 * titles, descriptions, scheme names, server URLs and variable defaults; a newline in any of them
 * must never start a new line of a Dockerfile, a `.env` file or a shell snippet, and a backtick or
 * `|` must never end a Markdown code span or table cell early. Every template interpolation of spec
 * text goes through one of these (see templates.ts and the template lint in test/unit/escape.ts).
 */
import { shellWord as quoteShellWord } from "../../../shared/contract.js";

/** Line terminators of every format we write (CR, LF, NEL, LS, PS, VT, FF) and other control characters. */
const BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g;

/** The text on one line: line breaks and control characters become one space. */
export function oneLine(text: unknown): string {
  return String(text ?? "")
    .replace(BREAKS_AND_CONTROLS, " ")
    .trim();
}

/** A Markdown table cell: one line, `|` escaped. */
export function markdownCell(text: unknown): string {
  return oneLine(text).replace(/\\/g, "\\\\").replace(/\|/g, "\\|");
}

/**
 * A Markdown code span holding `text` literally: the fence is one backtick longer than the longest
 * run of backticks inside (CommonMark), padded with a space when the text starts or ends with one.
 */
export function markdownCode(text: unknown): string {
  const value = oneLine(text);
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = value.startsWith("`") || value.endsWith("`") ? " " : "";
  return `${fence}${pad}${value}${pad}${fence}`;
}

/**
 * A fenced Markdown code block holding `text` literally (several lines): the fence is at least three
 * backticks and longer than any run of backticks inside, so spec text cannot close it early.
 */
export function markdownFence(info: string, text: unknown): string {
  const value = String(text ?? "");
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${value}\n${fence}`;
}

/** One shell word (POSIX sh) on one line: the runtime's quoting (print-config.ts), which the client snippets use too. */
export function shellWord(text: unknown): string {
  return quoteShellWord(oneLine(text));
}

/** Characters a `.env` value may hold unquoted in every common reader (dotenv, Node's --env-file, docker --env-file). */
const ENV_PLAIN = /^[A-Za-z0-9_@%+=:,./~-]*$/;

/**
 * The value of a `KEY=value` line of a `.env` file, or undefined when it cannot be written so that
 * every common reader sees the same value (the caller then leaves the value empty and shows it in a
 * comment). Values with spaces or `#` are single-quoted (literal in dotenv and Node's reader).
 */
export function envValue(text: unknown): string | undefined {
  const value = String(text ?? "");
  if (ENV_PLAIN.test(value)) return value;
  if (/[\u0000-\u001f\u007f\u0085\u2028\u2029'"`$\\]/.test(value)) return undefined;
  return `'${value}'`;
}

/** HTML text or a quoted attribute value: `& < > " '` as character references (the workspace report). */
export function htmlText(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
