/**
 * Passthrough rules: on a shared HTTP server, per-user upstream credentials may come from the
 * incoming request, but only through headers the operator maps explicitly to a security scheme.
 * Nothing else from the MCP request reaches the upstream: not its Authorization header (unless a
 * rule names it), not cookies, hop-by-hop or `Mcp-*` headers.
 */
import { readFileSync } from "node:fs";
import type { SecuritySchemeDefinition } from "../../api/types.js";

/** Incoming header → upstream security scheme. */
export interface PassthroughRule {
  /** Incoming request header (case-insensitive). */
  header: string;
  /** Key of the upstream security scheme the value is a credential for. */
  scheme: string;
}

/** Headers that can never be mapped: they describe the connection or the MCP session, not a user. */
const FORBIDDEN =
  /^(connection|keep-alive|proxy-authenticate|proxy-authorization|te|trailer|transfer-encoding|upgrade|host|content-length|content-type|cookie|set-cookie|origin|mcp-.*)$/i;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses `Header=scheme` (the `--passthrough` flag). */
export function parsePassthroughRule(text: string): PassthroughRule {
  const at = text.indexOf("=");
  if (at <= 0 || at === text.length - 1) throw new Error(`--passthrough ${text}: expected <Header>=<scheme>`);
  return { header: text.slice(0, at).trim(), scheme: text.slice(at + 1).trim() };
}

/** Reads `{ "rules": [{ "header": "X-Upstream-Token", "scheme": "bearerAuth" }] }`. */
export function loadPassthroughConfig(path: string): PassthroughRule[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read passthrough config ${path}: ${(error as Error).message}`);
  }
  const rules = (parsed as { rules?: unknown }).rules;
  if (!Array.isArray(rules))
    throw new Error(`passthrough config ${path}: expected {"rules": [{"header": …, "scheme": …}]}`);
  return rules.map((rule, index) => {
    const { header, scheme } = (rule ?? {}) as Record<string, unknown>;
    if (typeof header !== "string" || typeof scheme !== "string")
      throw new Error(`passthrough config ${path}: rules[${index}] needs string "header" and "scheme"`);
    return { header, scheme };
  });
}

/** Refuses rules that would forward connection or session headers, or name unknown schemes. */
export function checkPassthroughRules(
  rules: readonly PassthroughRule[],
  schemes: readonly SecuritySchemeDefinition[],
): void {
  const known = new Map(schemes.map((s) => [s.key, s]));
  for (const rule of rules) {
    if (!TOKEN.test(rule.header)) throw new Error(`passthrough header "${rule.header}" is not a valid header name`);
    if (FORBIDDEN.test(rule.header))
      throw new Error(`passthrough header "${rule.header}" can never be forwarded (connection, cookie or MCP header)`);
    const scheme = known.get(rule.scheme);
    if (!scheme)
      throw new Error(
        `passthrough scheme "${rule.scheme}" is not a security scheme of this server (known: ${[...known.keys()].join(", ") || "none"})`,
      );
    if (scheme.type === "mutualTLS")
      throw new Error(`passthrough scheme "${rule.scheme}" is mutual TLS, which cannot come from a header`);
  }
}

/**
 * The credentials a request carries under the rules, by scheme key. A mapped `Authorization`
 * header's `Bearer ` prefix is removed for token schemes; a basic scheme takes `Basic <b64>` or
 * `user:password`.
 */
export function passthroughCredentials(
  rules: readonly PassthroughRule[],
  headers: Record<string, string | string[] | undefined> | undefined,
  schemes: readonly SecuritySchemeDefinition[],
): Record<string, string> {
  const found: Record<string, string> = {};
  if (!headers) return found;
  for (const rule of rules) {
    const raw = headers[rule.header.toLowerCase()];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!value) continue;
    const scheme = schemes.find((s) => s.key === rule.scheme);
    if (scheme?.type === "http" && scheme.scheme === "basic") {
      found[rule.scheme] = /^basic\s+/i.test(value)
        ? Buffer.from(value.replace(/^basic\s+/i, ""), "base64").toString("utf8")
        : value;
    } else {
      found[rule.scheme] = value.replace(/^bearer\s+/i, "");
    }
  }
  return found;
}
