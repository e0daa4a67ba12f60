import { diffSpecs, formatDiff } from "../generator/index.js";
import { EXIT } from "./exit-codes.js";
import { specErrorExit } from "./report.js";

/** Flags of `mcp-gen diff`. */
export interface DiffArgs {
  old: string;
  new: string;
  json: boolean;
  allowRemote: boolean;
  /** `--ref-root`: the folder file $refs may read from. */
  refRoot?: string;
  failOnBreaking: boolean;
  keepNames: boolean;
}

/** `mcp-gen diff <old> <new>`: the tool changes between two documents (generator/commands/diff/diff-specs.ts), printed. */
export async function runDiff(args: DiffArgs): Promise<number> {
  try {
    const diff = await diffSpecs(args);
    const code = args.failOnBreaking && diff.breaking ? EXIT.breaking : EXIT.ok;
    if (args.json) process.stdout.write(JSON.stringify({ exitCode: code, ...diff }) + "\n");
    else process.stdout.write(formatDiff(diff) + "\n");
    return code;
  } catch (error) {
    return specErrorExit(error, args.json, "diff");
  }
}
