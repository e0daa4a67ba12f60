/** Factories for IR nodes, so planner tests need no YAML. */
import type { JsonSchema } from "../runtime/src/types.js";
import type {
  ApiIR,
  OperationIR,
  ParameterIR,
  RequestBodyIR,
  ResponseIR,
  SchemaIR,
  SecuritySchemeIR,
} from "../generator/ir/types.js";

export function parameter(overrides: Partial<ParameterIR> & Pick<ParameterIR, "name" | "in">): ParameterIR {
  const style = overrides.in === "query" || overrides.in === "cookie" ? "form" : "simple";
  return {
    pointer: `#/test/parameters/${overrides.name}`,
    required: overrides.in === "path",
    deprecated: false,
    style,
    explode: style === "form",
    allowReserved: false,
    schema: { type: "string" },
    ...overrides,
  };
}

export function jsonBody(schema: JsonSchema, required = true): RequestBodyIR {
  return {
    pointer: "#/test/requestBody",
    required,
    contents: [{ pointer: "#/test/requestBody/content", mediaType: "application/json", schema }],
  };
}

export function jsonResponse(status: string, schema?: JsonSchema): ResponseIR {
  return {
    pointer: `#/test/responses/${status}`,
    status,
    contents: schema === undefined ? [] : [{ pointer: "#/test/r", mediaType: "application/json", schema }],
  };
}

export function operation(overrides: Partial<OperationIR> = {}): OperationIR {
  return {
    pointer: "#/paths/~1things/get",
    method: "get",
    path: "/things",
    tags: [],
    deprecated: false,
    parameters: [],
    responses: [],
    ...overrides,
  };
}

export function schemas(entries: Record<string, JsonSchema>): Map<string, SchemaIR> {
  return new Map(
    Object.entries(entries).map(([name, schema]) => [name, { name, pointer: `#/components/schemas/${name}`, schema }]),
  );
}

export function api(
  operations: OperationIR[],
  defs: Map<string, SchemaIR> = new Map(),
  securitySchemes: SecuritySchemeIR[] = [],
): ApiIR {
  return {
    specVersion: "3.1",
    title: "Test API",
    apiVersion: "1.0.0",
    servers: [
      { pointer: "#/servers/0", url: "http://127.0.0.1:9/api/", template: "http://127.0.0.1:9/api/", variables: [] },
    ],
    operations,
    schemas: defs,
    components: [...defs.keys()].map((def) => ({ component: def, def })),
    securitySchemes,
  };
}
