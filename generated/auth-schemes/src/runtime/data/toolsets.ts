// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Toolsets and filters: which operations a server offers. The same rules run at generation time
 * (`mcp-gen --include-tags …`: the others are not generated) and at run time (`--toolsets`,
 * `MCP_TOOLSETS` …: the others are not listed, not found by search and refused when called).
 */

/** An operation as the filters see it. */
export interface FilterableOperation {
  name: string;
  method: string;
  path: string;
  tags?: readonly string[];
}

/**
 * Filters; every given rule must accept an operation. Tags compare case-insensitively. Operation
 * globs (`*` any run of characters, `?` one) match the tool name or `METHOD /path` (method in any
 * case): `repos/*`, `GET /repos/*`, `*_delete`.
 */
export interface OperationFilter {
  /** Only operations with at least one of these tags. */
  includeTags?: string[];
  /** No operation with any of these tags. */
  excludeTags?: string[];
  /** Only operations matching at least one of these globs. */
  includeOperations?: string[];
  /** No operation matching any of these globs. */
  excludeOperations?: string[];
  /** Only methods that do not write: GET, HEAD, OPTIONS. */
  readOnly?: boolean;
}

const READ_METHODS = new Set(["get", "head", "options"]);

/** Whether the filter has any rule at all. */
export function isFiltering(filter: OperationFilter): boolean {
  return Boolean(
    filter.includeTags?.length ||
      filter.excludeTags?.length ||
      filter.includeOperations?.length ||
      filter.excludeOperations?.length ||
      filter.readOnly,
  );
}

/** A predicate for `filter` (compiled once: globs become regular expressions). */
export function operationFilter(filter: OperationFilter): (op: FilterableOperation) => boolean {
  const include = filter.includeTags?.length ? new Set(filter.includeTags.map((t) => t.toLowerCase())) : undefined;
  const exclude = new Set((filter.excludeTags ?? []).map((t) => t.toLowerCase()));
  const includeOps = filter.includeOperations?.length ? filter.includeOperations.map(globPattern) : undefined;
  const excludeOps = (filter.excludeOperations ?? []).map(globPattern);
  return (op) => {
    if (filter.readOnly && !READ_METHODS.has(op.method.toLowerCase())) return false;
    const tags = (op.tags ?? []).map((t) => t.toLowerCase());
    if (include && !tags.some((t) => include.has(t))) return false;
    if (tags.some((t) => exclude.has(t))) return false;
    const route = `${op.method.toUpperCase()} ${op.path}`;
    const matches = (glob: GlobPattern): boolean => glob.test(op.name, route);
    if (includeOps && !includeOps.some(matches)) return false;
    return !excludeOps.some(matches);
  };
}

interface GlobPattern {
  test(name: string, route: string): boolean;
}

/** A glob on names or routes; a glob starting with an HTTP method and a space is a route glob. */
function globPattern(glob: string): GlobPattern {
  const route = /^([A-Za-z]+)\s+(\/.*)$/.exec(glob.trim());
  if (route) {
    const pattern = globRegExp(`${route[1]!.toUpperCase()} ${route[2]!}`);
    return { test: (_name, text) => pattern.test(text) };
  }
  const pattern = globRegExp(glob.trim());
  return { test: (name) => pattern.test(name) };
}

function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/** A comma-separated list (flags and environment variables) as its non-empty items. */
export function listOption(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
