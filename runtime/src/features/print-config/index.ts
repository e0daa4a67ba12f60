/**
 * Feature `print-config`: `--print-config C` prints client C's configuration entry for this server
 * (stdio, or with `--http` the form that connects over HTTP) from data/client-config.json, and exits.
 */
import type { Feature, FeatureContext } from "../../cli/features.js";
import { printedConfig } from "./print-config.js";
import { readToolChoice } from "../toolsets/connection-choice.js";

export const printConfig: Feature = {
  name: "print-config",
  flags: { "print-config": { type: "string" }, "url-query": { type: "string" } },
  usage: `  --print-config C   print the configuration entry for client C (claude-desktop, claude-code,
                     cursor, vscode) and exit; with --http, the form that connects over HTTP
  --url-query Q      with --print-config and --http: the URL carries this per-connection choice
                     of tools (toolsets=T,…&read_only=1&surface=S)
`,
  command({ flags, readData, http, origin }) {
    const client = flags["print-config"];
    if (typeof client !== "string") return false;
    const snippet = printedConfig(readData?.("client-config.json"), client, http ? url(origin, flags) : undefined);
    if (!snippet.ok) throw new Error(snippet.message);
    process.stdout.write(`${snippet.text}\n`);
    return true;
  },
  plugs: () => ({}),
};

/** The MCP endpoint's URL, with the `--url-query` choice when given (checked as the server would read it). */
function url(origin: string | undefined, flags: FeatureContext["flags"]): string {
  const query = typeof flags["url-query"] === "string" ? flags["url-query"].replace(/^\?/, "") : "";
  if (query === "") return `${origin}/mcp`;
  const choice = readToolChoice(`?${query}`, {});
  if (typeof choice === "string") throw new Error(`--url-query: ${choice}`);
  if (choice === undefined) throw new Error("--url-query: name toolsets=, read_only= or surface=");
  return `${origin}/mcp?${query}`;
}
