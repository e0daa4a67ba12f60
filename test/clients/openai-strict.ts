/**
 * A checker of OpenAI's strict-mode rules for function parameters, written from the documentation
 * (platform.openai.com/docs/guides/structured-outputs, "Supported schemas"), independent of the
 * runtime's rewrite: the root is an object, every object lists all its properties in `required` and
 * sets `additionalProperties: false`, only the supported keywords and string formats appear, at most
 * 10 levels of nesting, 5,000 properties and 1,000 enum values in all; at most 128 functions with
 * names of 1–64 letters, digits, `_` and `-`. Returns the violations (empty: strict mode takes it).
 */
const KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "description",
  "title",
  "$ref",
  "$defs",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

export function openAiStrictViolations(tools: Array<{ name: string; inputSchema: unknown }>): string[] {
  const problems: string[] = [];
  if (tools.length > 128) problems.push(`${tools.length} functions (at most 128)`);
  for (const tool of tools) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) problems.push(`${tool.name}: name`);
    const counts = { properties: 0, enumValues: 0 };
    const at = (path: string, message: string) => problems.push(`${tool.name}${path}: ${message}`);
    const visit = (node: unknown, path: string, level: number): void => {
      if (!isNode(node)) {
        at(path, "not a schema object");
        return;
      }
      for (const key of Object.keys(node)) if (!KEYWORDS.has(key)) at(path, `keyword ${key} is not supported`);
      const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
      for (const type of types) if (!TYPES.has(type as string)) at(path, `type ${String(type)}`);
      if (
        node.type === undefined &&
        node.anyOf === undefined &&
        node.enum === undefined &&
        node.const === undefined &&
        node.$ref === undefined
      )
        at(path, "no type");
      if (typeof node.format === "string" && !FORMATS.has(node.format)) at(path, `format ${node.format}`);
      if (Array.isArray(node.enum)) counts.enumValues += node.enum.length;
      if (types.includes("object")) {
        if (level > 10) at(path, "deeper than 10 levels");
        const properties = isNode(node.properties) ? node.properties : {};
        const names = Object.keys(properties);
        counts.properties += names.length;
        if (node.additionalProperties !== false) at(path, "additionalProperties is not false");
        const required = Array.isArray(node.required) ? node.required : [];
        if (required.length !== names.length || !names.every((name) => required.includes(name)))
          at(path, "required does not list every property");
        for (const name of names) visit(properties[name], `${path}.${name}`, level + 1);
      }
      if (types.includes("array")) {
        if (level > 10) at(path, "deeper than 10 levels");
        if (node.items !== undefined) visit(node.items, `${path}[]`, level + 1);
      }
      if (Array.isArray(node.anyOf)) node.anyOf.forEach((branch, i) => visit(branch, `${path}|${i}`, level));
    };
    const root = tool.inputSchema;
    if (!isNode(root) || root.type !== "object" || root.anyOf !== undefined) at("", "the root is not an object schema");
    visit(root, "", 1);
    if (counts.properties > 5000) at("", `${counts.properties} properties`);
    if (counts.enumValues > 1000) at("", `${counts.enumValues} enum values`);
  }
  return problems;
}
