/**
 * Install snippets: the exact entry each MCP client's configuration needs to start this server
 * (stdio, through `npx <package>`) or to reach it over Streamable HTTP. Shown in the generated
 * README and written to data/client-config.json, which the server's `--print-config` prints from.
 *
 * Formats, as each client documents them (2026):
 * - Claude Desktop, `claude_desktop_config.json`: `{ "mcpServers": { name: { command, args, env } } }`;
 *   remote servers are added as connectors in its settings, not in this file.
 * - Claude Code: `claude mcp add [--env K=V …] <name> -- <command> [args…]`, or
 *   `claude mcp add --transport http <name> <url>`.
 * - Cursor, `.cursor/mcp.json`: `{ "mcpServers": { name: { command, args, env } | { url } } }`.
 * - VS Code, `.vscode/mcp.json`: `{ "servers": { name: { type: "stdio", command, args, env } |
 *   { type: "http", url } }, "inputs": [ { type: "promptString", id, description, password } ] }`;
 *   secrets are asked for through `inputs` and referenced as `${input:id}`.
 */
import {
  CONFIG_URL,
  configServerName,
  shellWord,
  type ClientEntries,
  type ConfigSnippet,
  type ConfigVariable,
  type ServerInfo,
} from "../../../shared/contract.js";

/** The clients `--print-config` knows. */
export const CONFIG_CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode"] as const;
export type ConfigClient = (typeof CONFIG_CLIENTS)[number];

/** How the client reaches the server: it starts it (stdio) or connects to a running one (HTTP). */
export type ConfigTransport = { kind: "stdio" } | { kind: "http"; url: string };

/** The placeholder a user replaces: the example for plain settings, the variable's name for secrets. */
function placeholder(variable: ConfigVariable): string {
  return !variable.secret && variable.example ? variable.example : `<${variable.name}>`;
}

/**
 * The variables a client's `env` block should hold: the required ones and every credential (an API
 * with several schemes needs only one set; the user drops the others). Optional settings have defaults.
 */
function snippetVariables(info: ServerInfo): ConfigVariable[] {
  return (info.env ?? []).filter((variable) => variable.required || variable.secret);
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The configuration entry of `client` for this server over `transport`. */
export function clientConfig(client: ConfigClient, info: ServerInfo, transport: ConfigTransport): ConfigSnippet {
  const name = configServerName(info.name);
  const variables = snippetVariables(info);
  const env = Object.fromEntries(variables.map((v) => [v.name, placeholder(v)]));
  const withEnv = variables.length > 0 ? { env } : {};
  const stdio = { command: "npx", args: ["-y", info.name] };
  switch (client) {
    case "claude-desktop":
      if (transport.kind === "http") {
        return {
          ok: false,
          message:
            "Claude Desktop takes remote servers as connectors (Settings → Connectors), not from claude_desktop_config.json; use the stdio entry, or add the URL there.",
        };
      }
      return { ok: true, text: json({ mcpServers: { [name]: { ...stdio, ...withEnv } } }) };
    case "cursor":
      return {
        ok: true,
        text: json({
          mcpServers: { [name]: transport.kind === "http" ? { url: transport.url } : { ...stdio, ...withEnv } },
        }),
      };
    case "vscode": {
      if (transport.kind === "http")
        return { ok: true, text: json({ servers: { [name]: { type: "http", url: transport.url } } }) };
      const secrets = variables.filter((v) => v.secret);
      const vscodeEnv = Object.fromEntries(
        variables.map((v) => [v.name, v.secret ? `\${input:${v.name}}` : placeholder(v)]),
      );
      const inputs = secrets.map((v) => ({
        type: "promptString",
        id: v.name,
        description: v.description ?? v.name,
        password: true,
      }));
      return {
        ok: true,
        text: json({
          ...(inputs.length > 0 ? { inputs } : {}),
          servers: { [name]: { type: "stdio", ...stdio, ...(variables.length > 0 ? { env: vscodeEnv } : {}) } },
        }),
      };
    }
    case "claude-code": {
      if (transport.kind === "http")
        return {
          ok: true,
          text: ["claude", "mcp", "add", "--transport", "http", name, shellWord(transport.url)].join(" "),
        };
      const envFlags = variables.flatMap((v) => ["--env", shellWord(`${v.name}=${placeholder(v)}`)]);
      return {
        ok: true,
        text: ["claude", "mcp", "add", ...envFlags, name, "--", "npx", "-y", shellWord(info.name)].join(" "),
      };
    }
  }
}

/**
 * data/client-config.json: each client's stdio entry and its HTTP entry with CONFIG_URL where the
 * server's URL goes (quoted as a shell word by claude-code's command line, inside JSON strings by the others).
 */
export function clientConfigData(info: ServerInfo): string {
  const http: ConfigTransport = { kind: "http", url: CONFIG_URL };
  const entries: Record<string, ClientEntries> = {};
  for (const client of CONFIG_CLIENTS)
    entries[client] = {
      quote: client === "claude-code" ? "shell" : "json",
      stdio: clientConfig(client, info, { kind: "stdio" }),
      http: clientConfig(client, info, http),
    };
  return JSON.stringify(entries, null, 2) + "\n";
}
