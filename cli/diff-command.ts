import { contractsOf } from "../generator/diff/contracts.js";
import { diffTools } from "../generator/diff/diff-tools.js";
import { formatDiff } from "../generator/diff/format-diff.js";
import { generate } from "../generator/generate.js";
import { buildToolLock, parseToolLock } from "../generator/plan/tool-lock.js";
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

/**
 * `mcp-gen diff <old> <new>`: plans both specs in memory (nothing is written) and compares their
 * tools. With `keepNames` (the default) the new spec is planned with the old one's tool names locked,
 * exactly as a regeneration would, so only what clients would really see is reported; without it,
 * a changed operationId shows up as a rename.
 */
export async function runDiff(args: DiffArgs): Promise<number> {
  try {
    const before = await generate({
      spec: args.old,
      allowRemote: args.allowRemote,
      refRoot: args.refRoot,
      planOnly: true,
    });
    const toolLock = args.keepNames ? parseToolLock(buildToolLock(before.plan.tools)) : undefined;
    const after = await generate({
      spec: args.new,
      allowRemote: args.allowRemote,
      refRoot: args.refRoot,
      planOnly: true,
      ...(toolLock ? { toolLock } : {}),
    });
    const diff = diffTools(contractsOf(before.plan.tools), contractsOf(after.plan.tools));
    const code = args.failOnBreaking && diff.breaking ? EXIT.breaking : EXIT.ok;
    if (args.json) process.stdout.write(JSON.stringify({ exitCode: code, ...diff }) + "\n");
    else process.stdout.write(formatDiff(diff) + "\n");
    return code;
  } catch (error) {
    return specErrorExit(error, args.json, "diff");
  }
}
