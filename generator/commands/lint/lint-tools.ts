/**
 * `mcp-gen lint`'s rules: what a client profile would drop, truncate, refuse or defer of the tools
 * a server lists. Pure: tools and a profile in, findings out (the command reads the tools).
 */
import { estimateTokens, listBytes, type ListedTool } from "../../shared/contract.js";
import type { ClientProfile, LimitEffect } from "../../shared/profiles.js";
import { schemaShape } from "./schema-shape.js";

/** One thing a client would do to the listed tools. */
export interface LintFinding {
  /** Stable id of the rule. */
  rule:
    | "max-tools"
    | "qualified-name"
    | "name-pattern"
    | "list-tokens"
    | "schema-depth"
    | "strict-schema"
    | "served-names"
    | "served-schemas";
  effect: LimitEffect;
  message: string;
  /** The tools concerned (all of them when the whole request is refused). */
  tools: string[];
}

/** What a server lists, as a client sees it. */
export interface ListedServer {
  /** The key the server has in the client's configuration (see client-names.ts configServerName). */
  serverName: string;
  tools: ListedTool[];
}

const plural = (n: number, word: string): string => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Options of {@link lintTools}. */
export interface LintOptions {
  /** Also check the shape of an opt-in strict mode (OpenAI structured outputs); off by default. */
  strictSchemas?: boolean;
}

/** The findings of one profile for one listed server, in rule order. */
export function lintTools(server: ListedServer, profile: ClientProfile, options: LintOptions = {}): LintFinding[] {
  const { tools } = server;
  const limits = profile.limits;
  const findings: LintFinding[] = [];
  const names = tools.map((tool) => tool.name);
  if (limits.maxTools && tools.length > limits.maxTools.value) {
    const { value, effect, text } = limits.maxTools;
    const dropped = effect === "drop" ? names.slice(value) : names;
    const what =
      effect === "drop"
        ? `drops ${plural(dropped.length, "tool")} of ${tools.length.toLocaleString("en-US")}`
        : `refuses the list of ${plural(tools.length, "tool")}`;
    findings.push({ rule: "max-tools", effect, message: `${what}: ${text}`, tools: dropped });
  }
  if (limits.maxQualifiedName) {
    const { value, effect, text } = limits.maxQualifiedName;
    // Clients join the two with a separator ("server:tool", "mcp__server__tool"): one character at least.
    const long = names.filter((name) => server.serverName.length + 1 + name.length > value);
    if (long.length > 0)
      findings.push({
        rule: "qualified-name",
        effect,
        message: `${effect === "drop" ? "drops" : "shortens"} ${plural(long.length, "tool")} (server name "${server.serverName}", ${server.serverName.length} characters): ${text}`,
        tools: long,
      });
  }
  if (limits.namePattern) {
    const { value, effect, text } = limits.namePattern;
    const pattern = new RegExp(value);
    const bad = names.filter((name) => !pattern.test(name));
    if (bad.length > 0)
      findings.push({
        rule: "name-pattern",
        effect,
        message: `${plural(bad.length, "tool name")} do not match ${value}: ${text}`,
        tools: bad,
      });
  }
  if (limits.maxListTokens) {
    const { value, effect, text } = limits.maxListTokens;
    const tokens = estimateTokens(listBytes(tools));
    if (tokens > value)
      findings.push({
        rule: "list-tokens",
        effect,
        message: `tools/list is ~${tokens.toLocaleString("en-US")} tokens (over ${value.toLocaleString("en-US")}): ${text}`,
        tools: [],
      });
  }
  if (limits.maxSchemaDepth) {
    const { value, effect, text } = limits.maxSchemaDepth;
    const deep = tools.filter((tool) => schemaShape(tool.inputSchema).depth > value).map((tool) => tool.name);
    if (deep.length > 0)
      findings.push({
        rule: "schema-depth",
        effect,
        message: `${plural(deep.length, "input schema")} nest more than ${value} levels: ${text}`,
        tools: deep,
      });
  }
  if (limits.strictSchema && options.strictSchemas) {
    const { value: rules, effect, text } = limits.strictSchema;
    const reasons = new Map<string, number>();
    const misfits: string[] = [];
    for (const tool of tools) {
      const shape = schemaShape(tool.inputSchema, rules.unsupported);
      const why = [
        ...(shape.depth > rules.maxDepth ? [`more than ${rules.maxDepth} levels`] : []),
        ...(shape.properties > rules.maxProperties ? [`more than ${rules.maxProperties} properties`] : []),
        ...(shape.enumValues > rules.maxEnumValues ? [`more than ${rules.maxEnumValues} enum values`] : []),
        ...[...shape.keywords].sort().map((keyword) => `uses ${keyword}`),
        ...(shape.optionalProperties > 0 ? ["optional properties"] : []),
        ...(shape.openObjects > 0 ? ["objects without additionalProperties: false"] : []),
      ];
      if (why.length === 0) continue;
      misfits.push(tool.name);
      for (const reason of why) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    if (misfits.length > 0) {
      const summary = [...reasons].map(([reason, count]) => `${reason} (${count})`).join(", ");
      findings.push({
        rule: "strict-schema",
        effect,
        message: `${plural(misfits.length, "input schema")} of ${tools.length.toLocaleString("en-US")}: ${text}: ${summary}`,
        tools: misfits,
      });
    }
  }
  return findings;
}
