import { type Diagnostic, GenerationError } from "../generator/index.js";
import { EXIT } from "./exit-codes.js";

const useColor = process.stderr.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);

/**
 * One diagnostic as the CLI prints it: `warning MG101 #/paths/…: message` (or `src/custom/x.ts:3:7`,
 * or `overlay.yaml#/actions/2/target`) and a hint line.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const label =
    d.severity === "error" ? paint(31, "error") : d.severity === "warning" ? paint(33, "warning") : paint(36, "info");
  // A finding in another file: its line and column, or (an overlay's) its pointer: `overlay.yaml#/actions/2/target`.
  const inFile = d.file && d.line === undefined && d.pointer ? `${d.file}${d.pointer}` : undefined;
  const location =
    inFile ?? (d.file ? [d.file, d.line, d.column].filter((part) => part !== undefined).join(":") : d.pointer);
  const where = location ? ` ${paint(2, location)}` : "";
  const help = d.help ? `\n    ${paint(2, "hint:")} ${d.help}` : "";
  return `${label} ${d.code}${where}: ${d.message}${help}`;
}

/** Prints diagnostics to stderr; infos only when verbose. Returns counts by severity. */
export function printDiagnostics(diagnostics: Diagnostic[], verbose: boolean): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === "error") errors++;
    if (d.severity === "warning") warnings++;
    if (d.severity !== "info" || verbose) process.stderr.write(formatDiagnostic(d) + "\n");
  }
  return { errors, warnings };
}

/**
 * The end of a command that planned a spec and hit a GenerationError: its diagnostics on stderr
 * (or one JSON object on stdout with `--json`), exit code 1. Any other error is rethrown (exit 3).
 */
export function specErrorExit(error: unknown, json: boolean, command: string): number {
  if (!(error instanceof GenerationError)) throw error;
  if (json) process.stdout.write(JSON.stringify({ exitCode: EXIT.specError, diagnostics: error.diagnostics }) + "\n");
  else {
    printDiagnostics(error.diagnostics, false);
    process.stderr.write(`mcp-gen ${command}: ${error.message}\n`);
  }
  return EXIT.specError;
}
