import type { ArgumentsCamelCase, Argv } from "yargs";
import { listOption } from "../generator/index.js";

/** A command-line mistake (unknown flag, missing argument, a value a `coerce` refuses): help is shown, exit code 2. */
export class UsageError extends Error {}

/**
 * One command of `mcp-gen`: what yargs takes (`command`, `describe`, `builder`) and a handler that
 * resolves to the process exit code (exit-codes.ts). cli/index.ts registers the list of them.
 */
export interface CliCommand<A = unknown> {
  /** The command and its positionals, as yargs reads them (`diff <old> <new>`; `$0 <spec>` for the default). */
  command: string;
  /** The one-line summary `mcp-gen --help` shows. */
  describe: string;
  /** Declares the command's positionals, options and examples. */
  builder: (y: Argv) => Argv<A>;
  /** Runs the command with the parsed arguments; resolves to the exit code. */
  handler: (args: ArgumentsCamelCase<A>) => Promise<number>;
}

/** A command, typed by what its builder declares (the identity: it only lets TypeScript infer `A`). */
export function defineCommand<A>(command: CliCommand<A>): CliCommand<A> {
  return command;
}

/** A repeatable, comma-separated flag as its items (`--with a,b --with c` → a, b, c). */
export function listFlag(values: Array<string | number> | undefined): string[] {
  return (values ?? []).flatMap((value) => listOption(String(value)));
}

/** `--overlay`'s files (repeatable, in order; not split at commas: a path may have one); "none" gives none. */
export function overlayList(values: Array<string | number> | undefined): string[] | undefined {
  return values === undefined ? undefined : values.map(String).filter((value) => value !== "none" && value !== "");
}

/** `--with`'s features: a repeatable, comma-separated list; "none" (or empty) asks for none. */
export function featureList(values: Array<string | number>): string[] {
  return listFlag(values).filter((name) => name !== "none");
}
