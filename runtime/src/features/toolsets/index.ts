/**
 * Feature `toolsets`: the server offers only some of its operations, chosen at start (`--toolsets`,
 * `--exclude-tags`, `--include-operations`, `--exclude-operations`, `--read-only`, `MCP_TOOLSETS`,
 * `MCP_READ_ONLY`). The filters apply to every surface, and to the document and declarations resources.
 * Over HTTP, each connection may narrow them further with its URL or headers (connection-choice.ts).
 */
import type { Feature, FeatureContext, OfferTools } from "../../cli/features.js";
import { isFiltering, operationFilter, type OperationFilter } from "./filter.js";
import { listOption } from "../../cli/settings.js";
import { declarationsOf, documentWithOnly } from "./trim.js";
import { ToolChoices } from "./connection-choice.js";
import type { MakeConnectionChoices } from "../../server/choice-slot.js";

export const toolsets: Feature = {
  name: "toolsets",
  flags: {
    toolsets: { type: "string", multiple: true },
    "exclude-tags": { type: "string", multiple: true },
    "include-operations": { type: "string", multiple: true },
    "exclude-operations": { type: "string", multiple: true },
    "read-only": { type: "boolean" },
  },
  usage: `  --toolsets T,…     only operations with one of these OpenAPI tags (env MCP_TOOLSETS)
  --exclude-tags T,… no operation with one of these tags
  --include-operations G,…  only operations matching a glob on the tool name or "METHOD /path"
  --exclude-operations G,…  no operation matching one of these globs
  --read-only        only GET, HEAD and OPTIONS operations (env MCP_READ_ONLY=1)
                     (filters apply to every surface: search never finds, and calls refuse,
                     the operations left out)
`,
  plugs({ flags, env, logger }) {
    const filter = filterOptions(flags, env);
    const connectionChoices: MakeConnectionChoices = (operations, surfaces) => new ToolChoices(operations, surfaces);
    return isFiltering(filter) ? { offerTools: offeredBy(filter, logger), connectionChoices } : { connectionChoices };
  },
};

/** Toolset filters from the flags (lists comma-separated, repeatable), else `MCP_TOOLSETS` / `MCP_READ_ONLY`. */
function filterOptions(flags: FeatureContext["flags"], env: NodeJS.ProcessEnv): OperationFilter {
  const list = (name: string): string[] =>
    ((flags[name] as string[] | undefined) ?? []).flatMap((item) => listOption(item));
  return {
    includeTags: flags.toolsets !== undefined ? list("toolsets") : listOption(env.MCP_TOOLSETS),
    excludeTags: list("exclude-tags"),
    includeOperations: list("include-operations"),
    excludeOperations: list("exclude-operations"),
    readOnly: flags["read-only"] === true || /^(1|true|yes)$/i.test(env.MCP_READ_ONLY ?? ""),
  };
}

/** The operations `filter` keeps, decided on the catalog (names, routes, tags; schemas load when needed). */
function offeredBy(filter: OperationFilter, logger: FeatureContext["logger"]): OfferTools {
  return (source, { apiDocument, readData }) => {
    const keep = operationFilter(filter);
    const offered = source.catalog().filter(([name, method, path, tags]) => keep({ name, method, path, tags }));
    const names = offered.map(([name]) => name);
    if (names.length < source.names.length)
      logger.info(`toolset filters: ${names.length} of ${source.names.length} operations offered`);
    const kept = new Set(names);
    const routes = new Set(offered.map(([, method, path]) => `${method.toUpperCase()} ${path}`));
    return {
      tools: {
        names,
        load: () => source.load().filter((tool) => kept.has(tool.name)),
        get: (name) => (kept.has(name) ? source.get(name) : undefined),
      },
      apiDocument:
        apiDocument !== undefined
          ? () => documentWithOnly(typeof apiDocument === "string" ? apiDocument : apiDocument(), routes)
          : undefined,
      declarations: readData && (() => declarationsOf(readData("declarations.json") ?? "{}", kept)),
    };
  };
}
