/**
 * A copy of an OpenAPI document that holds only some operations and what they reach: for specs
 * Prism cannot load whole in reasonable time (Stripe: its `$ref` dereferencer had not finished after
 * 40 minutes), the fidelity runner lets Prism judge the sampled operations on such a copy. What Prism
 * checks of those operations is unchanged: their path items, and every component they reach by a
 * local `$ref`, transitively, are copied as they are.
 */

import { parsePointer, pointer, resolvePointer } from "../../generator/shared/pointer.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * `document` with only the operations at `pointers` (`#/paths/~1pets/get`), their path items'
 * shared fields (parameters, servers), and the components (or Swagger 2.0 definitions,
 * parameters, responses) they reach. Everything else at the top level (info, servers, security,
 * security schemes) is kept.
 */
export function pruneSpec(
  document: JsonObject,
  pointers: readonly string[],
  options: { requestsOnly?: boolean } = {},
): JsonObject {
  const paths: JsonObject = {};
  const source = (document.paths ?? {}) as JsonObject;
  for (const at of pointers) {
    const [root, key, method, ...rest] = parsePointer(at) ?? [];
    if (root !== "paths" || key === undefined || method === undefined || rest.length > 0)
      throw new Error(`not an operation pointer: ${at}`);
    const item = source[key] as JsonObject | undefined;
    if (!item || !(method in item)) throw new Error(`no operation at ${at}`);
    const kept = (paths[key] ??= Object.fromEntries(
      Object.entries(item).filter(([field]) => !METHODS.has(field)),
    )) as JsonObject;
    const operation = item[method] as JsonObject;
    kept[method] = options.requestsOnly ? withoutResponseSchemas(operation, document) : operation;
  }
  // Containers whose entries a `$ref` names: #/components/<kind>/<name> (3.x), #/<kind>/<name> (2.0).
  const pruned: JsonObject = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === "paths") pruned.paths = paths;
    else if (key === "components")
      pruned.components = Object.fromEntries(
        Object.entries(value as JsonObject).map(([kind, entries]) => [kind, kind === "securitySchemes" ? entries : {}]),
      );
    else if (key === "definitions" || key === "parameters" || key === "responses") pruned[key] = {};
    else pruned[key] = value;
  }
  const copied = new Set<string>();
  const pending: Json[] = [paths];
  while (pending.length > 0) {
    const value = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      pending.push(...value);
      continue;
    }
    for (const [field, child] of Object.entries(value)) {
      const segments = field === "$ref" && typeof child === "string" ? parsePointer(child) : undefined;
      if (segments) {
        const depth = segments[0] === "components" ? 3 : 2;
        const entry = segments.slice(0, depth);
        const id = pointer(...entry);
        if (entry.length < depth || copied.has(id)) continue;
        const target = resolvePointer(document, id) as Json | undefined;
        if (target === undefined) continue; // a dangling $ref stays dangling, as in the original
        copied.add(id);
        let container = pruned;
        for (const segment of entry.slice(0, -1)) container = (container[segment] ??= {}) as JsonObject;
        container[entry.at(-1)!] = target;
        pending.push(target);
      } else pending.push(child);
    }
  }
  return pruned;
}

/**
 * The same document in two files, for Prism's loader: the root without `components` (but its
 * security schemes), and `componentsFile` holding them, every `#/components/...` `$ref` pointing
 * there. Why: Prism's dereferencer (@stoplight/json-schema-ref-parser 9) caches what it reaches
 * through a `$ref`, but walks again, without a cache, every object of the root document it meets
 * directly; after the paths are dereferenced in place, walking `components` directly walks every
 * schema expanded through all its references. Stripe's document (775 schemas) did not load in 40
 * minutes. Out of the root, components are only reached through `$ref`s: each is walked once.
 * Nothing Prism checks changes: the schemas are the same objects under other pointers.
 */
export function splitComponents(
  document: JsonObject,
  componentsFile: string,
): { root: JsonObject; components: JsonObject } {
  const components = (document.components ?? {}) as JsonObject;
  const retarget = (value: Json, prefix: string): Json => {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((item) => retarget(item, prefix));
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        key === "$ref" && typeof child === "string" && child.startsWith("#/components/")
          ? `${prefix}#/${child.slice("#/components/".length)}`
          : retarget(child, prefix),
      ]),
    );
  };
  const root = Object.fromEntries(
    Object.entries(document).map(([key, value]) =>
      key === "components"
        ? [key, components.securitySchemes ? { securitySchemes: components.securitySchemes } : {}]
        : [key, retarget(value, componentsFile)],
    ),
  );
  return { root, components: retarget(components, "") as JsonObject };
}

/**
 * `operation` whose responses keep their status codes, descriptions and media types but no schema,
 * example or header: what a request may be does not depend on them. Stripe's responses reach
 * nearly all of its 775 schemas (its error object alone links charges, payment intents, sources);
 * Prism expands each into a tree at load time and did not finish even for one operation.
 */
function withoutResponseSchemas(operation: JsonObject, document: JsonObject): JsonObject {
  const responses = (operation.responses ?? {}) as JsonObject;
  const bare: JsonObject = {};
  for (const [status, response] of Object.entries(responses)) {
    const ref = (response as JsonObject).$ref;
    const resolved = (typeof ref === "string" ? (resolvePointer(document, ref) ?? {}) : response) as JsonObject;
    const content = resolved.content as JsonObject | undefined;
    bare[status] = {
      description: typeof resolved.description === "string" ? resolved.description : "",
      ...(content ? { content: Object.fromEntries(Object.keys(content).map((media) => [media, { schema: {} }])) } : {}),
      ...(resolved.schema !== undefined ? { schema: {} } : {}),
    };
  }
  return { ...operation, responses: bare };
}
