/**
 * Splits a byte stream into lines (`\n`, a trailing `\r` dropped) holding at most `maxBytes` of a
 * line: past that the line is reported too long at once and the rest of it, up to its newline, is
 * skipped, so a client that never ends a line cannot make the server buffer without bound.
 * (node:readline has no limit.)
 */

/** Lines of at most `maxBytes` bytes from chunks of a stream. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line that was too long: bytes are dropped until its newline. */
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(0x0a, start);
      this.take(bytes.subarray(start, newline === -1 ? bytes.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.size > 0) this.endLine();
  }

  private take(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    this.size += piece.length;
    if (this.size <= this.maxBytes) {
      this.parts.push(piece);
      return;
    }
    this.skipping = true;
    this.parts = [];
    this.onTooLong();
  }

  private endLine(): void {
    const line = this.skipping ? undefined : Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.size = 0;
    this.skipping = false;
    if (line !== undefined) this.onLine(line);
  }
}
