/**
 * A checker of Gemini's function-declaration rules, written from its documentation (the Schema
 * object of ai.google.dev/api, "a select subset of an OpenAPI 3.0 schema object") and the errors its
 * API returns, independent of the runtime's rewrite: only the Schema object's fields, one type per
 * schema (STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT; null as `nullable`), `enum` only on
 * strings, formats enum/date-time (strings), float/double, int32/int64, nested objects with
 * properties and arrays with items, `required` naming declared properties, at most 10 levels; at
 * most 512 declarations named by ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$. Returns the violations.
 */
const FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const FORMATS: Record<string, string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};
const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

export function geminiViolations(tools: Array<{ name: string; inputSchema: unknown }>): string[] {
  const problems: string[] = [];
  if (tools.length > 512) problems.push(`${tools.length} declarations (at most 512)`);
  for (const tool of tools) {
    if (!/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/.test(tool.name)) problems.push(`${tool.name}: name`);
    const at = (path: string, message: string) => problems.push(`${tool.name}${path}: ${message}`);
    const visit = (node: unknown, path: string, level: number, root: boolean): void => {
      if (!isNode(node)) {
        at(path, "not a schema object");
        return;
      }
      for (const key of Object.keys(node)) if (!FIELDS.has(key)) at(path, `field ${key} is not in the Schema object`);
      const type = typeof node.type === "string" ? node.type.toLowerCase() : undefined;
      if (node.type !== undefined && (type === undefined || !TYPES.has(type)))
        at(path, `type ${JSON.stringify(node.type)} is not one type name`);
      if (type === undefined && !Array.isArray(node.anyOf)) at(path, "no type");
      if (
        node.enum !== undefined &&
        (type !== "string" || !Array.isArray(node.enum) || !node.enum.every((v) => typeof v === "string"))
      )
        at(path, "enum off a string");
      if (typeof node.format === "string" && !(FORMATS[type ?? ""] ?? []).includes(node.format))
        at(path, `format ${node.format} for ${type}`);
      if (type === "object") {
        if (level > 10) at(path, "deeper than 10 levels");
        const properties = isNode(node.properties) ? node.properties : {};
        if (!root && Object.keys(properties).length === 0) at(path, "an object without properties");
        for (const name of Array.isArray(node.required) ? node.required : [])
          if (!Object.hasOwn(properties, name as string)) at(path, `required ${String(name)} is not a property`);
        for (const [name, child] of Object.entries(properties)) visit(child, `${path}.${name}`, level + 1, false);
      }
      if (type === "array") {
        if (level > 10) at(path, "deeper than 10 levels");
        if (!isNode(node.items)) at(path, "an array without items");
        else visit(node.items, `${path}[]`, level + 1, false);
      }
      if (Array.isArray(node.anyOf)) node.anyOf.forEach((branch, i) => visit(branch, `${path}|${i}`, level, false));
    };
    const root = tool.inputSchema;
    if (!isNode(root) || root.type !== "object") at("", "the root is not an object schema");
    visit(root, "", 1, true);
  }
  return problems;
}
