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

  /** The current indentation level. */
  get indentation(): number {
    return this.level;
  }

  /** The text written so far. */
  toString(): string {
    return this.pieces.join("");
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
