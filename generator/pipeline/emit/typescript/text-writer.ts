/**
 * The part of code-block-writer's behaviour (ts-morph's writer) that type declarations use, writing
 * to a string: two-space indentation written before the first text of a line, LF line ends, blocks
 * in braces. type-expression.ts builds each declaration's text with it and hands ts-morph the text
 * as a statement: ts-morph then writes it in one call instead of one call per token and brace, which
 * made most of its printing time for a big API (GitHub: thousands of nested object types).
 *
 * The text is the same as code-block-writer's for these calls at indentation level 0, where
 * declarations are statements of a file: ts-morph writes a statement's text there as it is.
 */
const INDENT = "  ";
const LINE_BREAK = /\r?\n/;

/** Writes indented text (see the module comment). */
export class TextWriter {
  /** The text in pieces, joined once at the end (a string grown by `+=` and read at its end is flattened each time). */
  private readonly pieces: string[] = [];
  /** Whether the next text starts a line (nothing written yet, or the last piece ended one). */
  private lineStart = true;
  private level = 0;

  /** Writes `text`; each of its lines that has text starts with the indentation when it starts a line. */
  write(text: string): this {
    // As code-block-writer: empty text at a line's start still writes the indentation.
    if (text === "") {
      if (this.lineStart) this.indent();
      return this;
    }
    const lines = text.includes("\n") ? text.split(LINE_BREAK) : [text];
    lines.forEach((line, i) => {
      if (i > 0) this.push("\n");
      if (line.length === 0) return;
      if (this.lineStart) this.indent();
      this.push(line);
    });
    return this;
  }

  /** Ends the line. */
  newLine(): this {
    this.push("\n");
    return this;
  }

  /** Writes `text` on a line of its own. */
  writeLine(text: string): this {
    if (!this.lineStart) this.newLine();
    return this.write(text).newLine();
  }

  /** Writes `{`, then what `block` writes one level in, from the next line, then `}` on a line of its own. */
  inlineBlock(block: () => void): this {
    this.write("{");
    if (!this.lineStart) this.newLine();
    this.indented(this.level + 1, block);
    if (!this.lineStart) this.newLine();
    return this.write("}");
  }

  /** Runs `action` with the indentation at `level`, then restores it. */
  indented(level: number, action: () => void): void {
    const previous = this.level;
    this.level = level;
    try {
      action();
    } finally {
      this.level = previous;
    }
  }

  /** Writes a space unless the last text written ends with one (code-block-writer's `spaceIfLastNot`). */
  spaceIfLastNot(): this {
    return this.lastChar() === " " ? this : this.write(" ");
  }

  /**
   * Writes a doc comment and ends its line, as ts-morph writes a structure's `docs` entry: one line
   * (`/** text *\/`) when the text has no line break, else a ` *` line per line of the text.
   */
  jsDoc(text: string): this {
    const lines = text.split(LINE_BREAK);
    const first = lines[0]!.length === 0 ? 1 : 0;
    this.write("/**");
    if (lines.length <= 1) this.write(" ").write(lines[first] ?? "");
    else {
      this.newLine();
      for (const line of lines.slice(first)) {
        this.write(" *");
        if (line.length > 0) this.write(` ${line}`);
        this.newLine();
      }
    }
    return this.spaceIfLastNot().write("*/").newLine();
  }

  /** The current indentation level. */
  get indentation(): number {
    return this.level;
  }

  /** The text written so far. */
  toString(): string {
    return this.pieces.join("");
  }

  private lastChar(): string | undefined {
    const last = this.pieces.at(-1);
    return last === undefined ? undefined : last[last.length - 1];
  }

  private indent(): void {
    if (this.level > 0) this.push(INDENT.repeat(this.level));
  }

  /** Appends non-empty text, noting whether it ends a line (as code-block-writer, a `\r` does too). */
  private push(text: string): void {
    this.pieces.push(text);
    const last = text.charCodeAt(text.length - 1);
    this.lineStart = last === 10 || last === 13;
  }
}

/** The last character of `text` that is not white space, or undefined. */
function lastNonWhiteSpace(text: string): string | undefined {
  const trimmed = text.trimEnd();
  return trimmed.length > 0 ? trimmed[trimmed.length - 1] : undefined;
}

/**
 * Statements' texts joined as ts-morph joins a file's text statements: each from a new line, after
 * a blank line when the text before it ends with `}`. (ts-morph's printer writes text statements
 * as they are at indentation level 0; joining them here saves scanning every character again.)
 */
export function joinStatements(statements: readonly string[]): string {
  let text = "";
  for (const statement of statements) {
    if (text !== "") {
      if (lastNonWhiteSpace(text) === "}") text = withBlankLine(text);
      else if (!endsLine(text)) text += "\n";
    }
    text += statement;
  }
  return text;
}

/** `text` ending with a blank line (code-block-writer's `blankLineIfLastNot`). */
function withBlankLine(text: string): string {
  let breaks = 0;
  for (let i = text.length - 1; i >= 0 && breaks < 2; i--) {
    const code = text.charCodeAt(i);
    if (code === 10) breaks++;
    else if (code !== 13) break;
  }
  if (breaks >= 2) return text;
  return `${endsLine(text) ? text : `${text}\n`}\n`;
}

/** Whether `text` ends a line (`\n`, or a `\r` as code-block-writer counts it). */
function endsLine(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 10 || last === 13;
}

/**
 * Each item's statements (texts) as a piece of a file: joined (joinStatements), without leading
 * line breaks and trailing white space, ending with one line break — what ts-morph.ts `printEach`
 * gives for text statements, without ts-morph.
 */
export function textPieces<T>(items: readonly T[], statementsOf: (item: T) => string[]): string[] {
  return items.map((item) => `${joinStatements(statementsOf(item)).replace(/^\n+/, "").trimEnd()}\n`);
}
