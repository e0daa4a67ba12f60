// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Install snippets: the exact entry each MCP client's configuration needs to start this server
 * (stdio, through `npx <package>`) or to reach it over Streamable HTTP. Printed by `--print-config`
 * and, from the same function, shown in the generated README. Pure: no I/O, no process state.
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
import type { ConfigVariable, ServerInfo } from "../api/types.js";

/** The clients `--print-config` knows. */
export const CONFIG_CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode"] as const;
export type ConfigClient = (typeof CONFIG_CLIENTS)[number];

/** How the client reaches the server: it starts it (stdio) or connects to a running one (HTTP). */
export type ConfigTransport = { kind: "stdio" } | { kind: "http"; url: string };

/** A snippet, or why the client cannot take this transport from a config file. */
export type ConfigSnippet = { ok: true; text: string } | { ok: false; message: string };

/** The key a server gets in the clients' maps: the package name without scope, in `[A-Za-z0-9_-]`. */
export function configServerName(packageName: string): string {
  const base = packageName
    .replace(/^@[^/]+\//, "")
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^[^A-Za-z]+/, "");
  return base || "server";
}

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

/** A word for a POSIX shell: unquoted when plain, else single-quoted (`'` written as `'\''`). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
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
