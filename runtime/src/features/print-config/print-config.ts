/**
 * `--print-config C`: client C's configuration entry for this server (stdio, or HTTP), as mcp-gen
 * wrote it into data/client-config.json; an HTTP entry holds {@link CONFIG_URL} for the URL.
 */
import { getOwn } from "../../protocol/own.js";

/** Where an HTTP entry takes the server's URL (upper case: no npm package name can hold it). */
export const CONFIG_URL = "MCP_SERVER_URL";

/** A snippet, or why the client cannot take this transport from a config file. */
export type ConfigSnippet = { ok: true; text: string } | { ok: false; message: string };

/** One client's entries in data/client-config.json. */
export interface ClientEntries {
  /** How its HTTP entry quotes the URL: as a shell word (a command line), or inside a JSON string. */
  quote: "shell" | "json";
  stdio: ConfigSnippet;
  http: ConfigSnippet;
}

/** A word for a POSIX shell: unquoted when plain, else single-quoted (`'` written as `'\''`). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Client `client`'s entry from data/client-config.json (`data`): over HTTP at `url` when given, else stdio. */
export function printedConfig(data: string | undefined, client: string, url?: string): ConfigSnippet {
  if (data === undefined) return { ok: false, message: "--print-config: this server has no data/client-config.json" };
  const entries = JSON.parse(data) as Record<string, ClientEntries>;
  const entry = getOwn(entries, client) as ClientEntries | undefined;
  if (!entry)
    return {
      ok: false,
      message: `--print-config: unknown client '${client}' (one of ${Object.keys(entries).join(", ")})`,
    };
  const snippet = url === undefined ? entry.stdio : entry.http;
  if (!snippet.ok || url === undefined) return snippet;
  const quoted = entry.quote === "shell" ? shellWord(url) : JSON.stringify(url).slice(1, -1);
  return { ok: true, text: snippet.text.split(CONFIG_URL).join(quoted) };
}
