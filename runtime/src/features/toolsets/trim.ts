/** The OpenAPI document and the declarations as the resources show them: only the offered operations. */
import { isRecord, setOwn } from "../../protocol/own.js";

/** The keys of an OpenAPI path item that are operations. */
const OPERATION_KEYS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The OpenAPI document (JSON text) with only the offered operations, named by route
 * (`GET /pets/{petId}`): what toolset filters or `--read-only` left out is not shown by
 * `openapi://document` either. Path items left without operations go too; the rest is unchanged.
 */
export function documentWithOnly(text: string, routes: ReadonlySet<string>): string {
  const document = JSON.parse(text) as unknown;
  if (!isRecord(document) || !isRecord(document.paths)) return text;
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    const kept = Object.entries(item).filter(
      ([key]) => !OPERATION_KEYS.has(key) || routes.has(`${key.toUpperCase()} ${path}`),
    );
    if (kept.some(([key]) => OPERATION_KEYS.has(key))) setOwn(paths, path, Object.fromEntries(kept));
  }
  return JSON.stringify({ ...document, paths });
}

/** The declarations (JSON text: tool name → declaration) of the offered tools only (`openapi://declarations`). */
export function declarationsOf(text: string, names: ReadonlySet<string>): string {
  const all = JSON.parse(text) as unknown;
  return isRecord(all)
    ? JSON.stringify(Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name))))
    : text;
}
