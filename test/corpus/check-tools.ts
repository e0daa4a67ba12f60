/**
 * Checks one server's `tools/list` answer the way a strict MCP client would: names, uniqueness,
 * descriptions, object roots, schemas that compile in ajv's 2020-12 mode, no OpenAPI-only keywords.
 */
import { Ajv2020 } from "ajv/dist/2020.js";

type Obj = Record<string, unknown>;

/** The tool names we emit: MCP also allows dots, model APIs (Claude, OpenAI) do not. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The parts of a listed tool the checks read. */
export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: Obj;
  outputSchema?: Obj | undefined;
}

/** Keywords whose value is one sub-schema. */
const SINGLE = [
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
  "items",
  "additionalItems",
];
/** Keywords whose value is a list of sub-schemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to sub-schemas. */
const MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
/** OpenAPI-only keywords that must not reach a JSON Schema client. */
const FORBIDDEN = new Set(["nullable", "discriminator", "example", "xml", "x-nullable"]);

/** Every OpenAPI-only keyword or non-local `$ref` in a schema, as `<pointer>: <problem>`. */
export function foreignKeywords(schema: unknown, at = "#"): string[] {
  const found: string[] = [];
  const visit = (node: unknown, where: string): void => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    const s = node as Obj;
    for (const key of Object.keys(s)) {
      if (FORBIDDEN.has(key)) found.push(`${where}: ${key}`);
      else if (key.startsWith("x-") && key !== "x-mcp-header") found.push(`${where}: ${key}`);
      else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof s[key] === "boolean")
        found.push(`${where}: boolean ${key}`);
      else if (key === "$ref" && (typeof s.$ref !== "string" || !s.$ref.startsWith("#")))
        found.push(`${where}: non-local $ref ${String(s.$ref)}`);
    }
    for (const key of SINGLE) if (key in s) visit(s[key], `${where}/${key}`);
    for (const key of LIST)
      if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((sub, i) => visit(sub, `${where}/${key}/${i}`));
    for (const key of MAP) {
      const map = s[key];
      if (map && typeof map === "object")
        for (const [name, sub] of Object.entries(map as Obj)) visit(sub, `${where}/${key}/${name}`);
    }
  };
  visit(schema, at);
  return found;
}

/** A fresh ajv in 2020-12 mode, as lenient as SDK clients are (strict off). */
export function newAjv(): Ajv2020 {
  return new Ajv2020({ strict: false, allErrors: false, validateFormats: false, logger: false });
}

/** Problems of one schema that must be an object at the root and compile. */
function schemaProblems(ajv: Ajv2020, schema: Obj, label: string, needProperties: boolean): string[] {
  const problems: string[] = [];
  if (schema.type !== "object") problems.push(`${label}: root type is ${JSON.stringify(schema.type)}, not "object"`);
  if (needProperties && (schema.properties === null || typeof schema.properties !== "object"))
    problems.push(`${label}: root has no properties`);
  try {
    ajv.compile(schema);
  } catch (error) {
    problems.push(`${label}: ajv 2020 cannot compile: ${(error as Error).message.slice(0, 200)}`);
  }
  for (const keyword of foreignKeywords(schema).slice(0, 3))
    problems.push(`${label}: OpenAPI-only keyword at ${keyword}`);
  return problems;
}

/** Every problem with a `tools/list` answer, each prefixed with the tool name. Empty when clean. */
export function checkTools(tools: ListedTool[], expectedCount: number): string[] {
  const problems: string[] = [];
  if (tools.length !== expectedCount) problems.push(`${tools.length} tools for ${expectedCount} operations`);
  const seen = new Set<string>();
  const ajv = newAjv();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) problems.push(`${tool.name}: invalid name`);
    if (seen.has(tool.name)) problems.push(`${tool.name}: duplicate name`);
    seen.add(tool.name);
    if (!tool.description || tool.description.trim() === "") problems.push(`${tool.name}: no description`);
    problems.push(...schemaProblems(ajv, tool.inputSchema, `${tool.name} inputSchema`, true));
    if (tool.outputSchema !== undefined)
      problems.push(...schemaProblems(ajv, tool.outputSchema, `${tool.name} outputSchema`, false));
  }
  return problems;
}

/** Counts the operations of an OpenAPI document directly (independent of the generator). */
export function countOperations(document: unknown): number {
  const paths = (document as Obj | null)?.paths;
  if (!paths || typeof paths !== "object") return 0;
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  let count = 0;
  for (const raw of Object.values(paths as Obj)) {
    const item = followRef(document, raw);
    if (!item || typeof item !== "object") continue;
    for (const method of methods) if ((item as Obj)[method] && typeof (item as Obj)[method] === "object") count++;
  }
  return count;
}

/** Follows a local `$ref` (one hop chain, bounded) to its target. */
function followRef(document: unknown, value: unknown): unknown {
  let current = value;
  for (
    let hops = 0;
    hops < 8 && current && typeof current === "object" && typeof (current as Obj).$ref === "string";
    hops++
  ) {
    const ref = (current as Obj).$ref as string;
    if (!ref.startsWith("#/")) return undefined;
    current = ref
      .slice(2)
      .split("/")
      .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>(
        (node, token) => (node && typeof node === "object" ? (node as Obj)[token] : undefined),
        document,
      );
  }
  return current;
}
