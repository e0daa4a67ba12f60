/**
 * Feature `print-config`: `--print-config C` prints client C's configuration entry for this server
 * (stdio, or with `--http` the form that connects over HTTP) from data/client-config.json, and exits.
 */
import type { Feature } from "../../cli/features.js";
import { printedConfig } from "./print-config.js";

export const printConfig: Feature = {
  name: "print-config",
  usage: `  --print-config C   print the configuration entry for client C (claude-desktop, claude-code,
                     cursor, vscode) and exit; with --http, the form that connects over HTTP
`,
  command({ flags, readData, http, origin }) {
    const client = flags["print-config"];
    if (typeof client !== "string") return false;
    const snippet = printedConfig(readData?.("client-config.json"), client, http ? `${origin}/mcp` : undefined);
    if (!snippet.ok) throw new Error(snippet.message);
    process.stdout.write(`${snippet.text}\n`);
    return true;
  },
  plugs: () => ({}),
};
