import type { JsonSchema, ParameterLocation, ParameterStyle } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { childPointer } from "../../shared/pointer.js";
import type { SpecVersion } from "../load/load-spec.js";
import type { ParameterIR } from "./ir-types.js";
import type { SchemaNormalizer } from "./schema-normalizer.js";

type Obj = Record<string, unknown>;

const LOCATIONS = new Set<ParameterLocation>(["path", "query", "header", "cookie"]);
const STYLES = new Set<ParameterStyle>([
  "simple",
  "label",
  "matrix",
  "form",
  "spaceDelimited",
  "pipeDelimited",
  "deepObject",
]);
/** Swagger 2.0 parameter fields that are JSON Schema keywords. */
const SWAGGER2_SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "default",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "enum",
  "multipleOf",
  "x-nullable",
];

/** The default style of a location (OpenAPI 3). */
function defaultStyle(location: ParameterLocation): ParameterStyle {
  return location === "query" || location === "cookie" ? "form" : "simple";
}

/**
 * The OpenAPI 3 style/explode a Swagger 2.0 `collectionFormat` names (`csv`: the location's default
 * style without explode); undefined for none or an unknown one.
 */
export function collectionStyle(
  format: unknown,
  location: ParameterLocation,
): { style: ParameterStyle; explode: boolean } | undefined {
  switch (format) {
    case "multi":
      return { style: "form", explode: true };
    case "ssv":
      return { style: "spaceDelimited", explode: false };
    case "pipes":
      return { style: "pipeDelimited", explode: false };
    case "csv":
      return { style: defaultStyle(location), explode: false };
    default:
      return undefined;
  }
}

/** Swagger 2.0 `collectionFormat` → OpenAPI 3 style/explode (csv when none is given, as 2.0 says). */
function fromCollectionFormat(
  format: unknown,
  location: ParameterLocation,
  at: string,
  bag: DiagnosticBag,
): { style: ParameterStyle; explode: boolean } {
  if (format === "tsv")
    bag.warn(
      Codes.paramInvalid,
      'collectionFormat "tsv" has no OpenAPI 3 equivalent; values are sent comma-separated.',
      childPointer(at, "collectionFormat"),
    );
  return collectionStyle(format, location) ?? { style: defaultStyle(location), explode: false };
}

/** Builds a `ParameterIR` from a resolved path, query, header or cookie parameter object. */
export function buildParameter(
  param: Obj,
  at: string,
  version: SpecVersion,
  normalizer: SchemaNormalizer,
  bag: DiagnosticBag,
): ParameterIR | undefined {
  const name = param.name;
  const location = param.in as ParameterLocation;
  if (typeof name !== "string" || name === "" || !LOCATIONS.has(location)) {
    bag.warn(
      Codes.paramInvalid,
      `Parameter without a valid name or location (in: ${String(param.in)}) is skipped.`,
      at,
      "Give the parameter a `name` and an `in` of path, query, header or cookie.",
    );
    return undefined;
  }
  let schema: JsonSchema;
  let style: ParameterStyle;
  let explode: boolean;
  if (version === "2.0") {
    const raw: Obj = {};
    for (const key of SWAGGER2_SCHEMA_KEYS) if (param[key] !== undefined) raw[key] = param[key];
    schema = normalizer.normalize(raw, at);
    ({ style, explode } = fromCollectionFormat(param.collectionFormat, location, at, bag));
  } else {
    const content = param.content as Obj | undefined;
    const media = content ? (Object.values(content)[0] as Obj | undefined) : undefined;
    const rawSchema = param.schema ?? media?.schema;
    const schemaAt =
      param.schema !== undefined
        ? childPointer(at, "schema")
        : childPointer(at, "content", Object.keys(content ?? {})[0] ?? "", "schema");
    schema = rawSchema === undefined ? {} : normalizer.normalize(rawSchema, schemaAt);
    style = STYLES.has(param.style as ParameterStyle) ? (param.style as ParameterStyle) : defaultStyle(location);
    explode = typeof param.explode === "boolean" ? param.explode : style === "form";
  }
  let required = param.required === true;
  if (location === "path" && !required) {
    bag.warn(Codes.paramInvalid, `Path parameter "${name}" must be required; it is treated as required.`, at);
    required = true;
  }
  const description =
    typeof param.description === "string" && param.description.trim() !== "" ? param.description.trim() : undefined;
  if (description !== undefined && typeof schema === "object" && schema.description === undefined) {
    schema = { ...schema, description };
  }
  return {
    pointer: at,
    name,
    in: location,
    required,
    description,
    deprecated: param.deprecated === true,
    style,
    explode,
    allowReserved: param.allowReserved === true,
    ...(location === "query" && param.allowEmptyValue === true ? { allowEmptyValue: true } : {}),
    schema,
    mcpHeader: param["x-mcp-header"],
  };
}
