import { diffSpecs, formatDiff } from "../../generator/index.js";
import { defineCommand, overlayList } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { specErrorExit } from "../report.js";
import { specSourceOptions } from "../spec-source-options.js";

/** `mcp-gen diff <old> <new>`: the tool changes between two documents (generator/commands/diff/diff-specs.ts), printed. */
export const diffCommand = defineCommand({
  command: "diff <old> <new>",
  describe:
    "Compare the tools of two versions of a spec: added, removed, renamed, breaking or compatible changes, suggested semver bump",
  builder: (y) =>
    specSourceOptions(y, "each spec's own folder")
      .positional("old", { type: "string", demandOption: true, describe: "The previous OpenAPI document" })
      .positional("new", { type: "string", demandOption: true, describe: "The new OpenAPI document" })
      .option("json", { type: "boolean", default: false, describe: "Print the diff as JSON (for CI)" })
      .option("fail-on-breaking", { type: "boolean", default: false, describe: "Exit 6 when a change is breaking" })
      .option("keep-names", {
        type: "boolean",
        default: true,
        describe: "Keep the old tool names as a regeneration would (--no-keep-names reports operationId renames)",
      })
      .option("overlay", {
        type: "string",
        array: true,
        describe: "Overlay 1.0 document applied to both specs first (repeatable, in order)",
      })
      .option("new-overlay", {
        type: "string",
        array: true,
        describe:
          "Overlay 1.0 document applied to the new spec only (what an overlay changes: diff spec spec --new-overlay o.yaml)",
      })
      .example("$0 diff v1.yaml v2.yaml --json", "Machine-readable diff for CI")
      .example("$0 diff api.yaml api.yaml --new-overlay ours.yaml", "What an overlay changes of the tools"),
  handler: async (args) => {
    try {
      const diff = await diffSpecs({
        old: args.old,
        new: args.new,
        allowRemote: args.allowRemote,
        refRoot: args.refRoot,
        keepNames: args.keepNames,
        overlays: overlayList(args.overlay) ?? [],
        newOverlays: overlayList(args.newOverlay) ?? [],
      });
      const code = args.failOnBreaking && diff.breaking ? EXIT.breaking : EXIT.ok;
      if (args.json) process.stdout.write(JSON.stringify({ exitCode: code, ...diff }) + "\n");
      else process.stdout.write(formatDiff(diff) + "\n");
      return code;
    } catch (error) {
      return specErrorExit(error, args.json, "diff");
    }
  },
});
