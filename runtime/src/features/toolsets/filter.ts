/** Toolsets and filters: which operations a server offers (mcp-gen `--include-tags`, server `--toolsets`, feature `toolsets`). */

/** An operation as the filters see it. */
export interface FilterableOperation {
  name: string;
  method: string;
  path: string;
  tags?: readonly string[];
}

/** Filters, every one must accept an operation; tags ignore case; globs match a name or `GET /repos/*`. */
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
    const matches = (glob: (name: string, route: string) => boolean): boolean => glob(op.name, route);
    if (includeOps && !includeOps.some(matches)) return false;
    return !excludeOps.some(matches);
  };
}

/** A glob on names or routes as a test of (name, route); a glob starting with an HTTP method and a space is a route glob. */
function globPattern(glob: string): (name: string, route: string) => boolean {
  const route = /^([A-Za-z]+)\s+(\/.*)$/.exec(glob.trim());
  const body = (route ? `${route[1]!.toUpperCase()} ${route[2]!}` : glob.trim())
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  const pattern = new RegExp(`^${body}$`);
  return (name, text) => pattern.test(route ? text : name);
}
