/**
 * The intermediate representation: a version-neutral model of the API. Swagger 2.0 and OpenAPI
 * 3.0/3.1 all become this shape; later stages never look at the raw spec again. Every node carries
 * `pointer`, the JSON pointer of the spec object it came from, for diagnostics.
 */
import type {
  FieldEncoding,
  HttpMethod,
  JsonSchema,
  ParameterLocation,
  ParameterStyle,
  SecurityRequirement,
  SecuritySchemeDefinition,
} from "../../shared/contract.js";
import type { SpecVersion } from "../load/load-spec.js";
import type { McpOverrides } from "./mcp-extensions.js";

/** The whole API. */
export interface ApiIR {
  /** The spec family the IR was built from. */
  specVersion: SpecVersion;
  /** `info.title`. */
  title: string;
  /** `info.version`. */
  apiVersion: string;
  /** `info.description`, trimmed. */
  description?: string;
  /** `info.license.name`, when given. */
  license?: string;
  servers: ServerIR[];
  operations: OperationIR[];
  /**
   * Every named schema the operations reference, normalized to JSON Schema 2020-12, keyed by the
   * `$defs` name used in `$ref: "#/$defs/<name>"`. Direction-neutral: `readOnly`/`writeOnly` are kept
   * here and applied by the planner.
   */
  schemas: Map<string, SchemaIR>;
  /**
   * The document's named schemas (`components.schemas`, 2.0 `definitions`) in document order, by
   * their name there and their entry in `schemas` (each one is there, referenced or not).
   */
  components: Array<{ component: string; def: string }>;
  /** Security schemes (2.0 `securityDefinitions`, 3.x `components.securitySchemes`), in spec order. */
  securitySchemes: SecuritySchemeIR[];
  /** Top-level `security`: the default requirements of every operation. */
  security?: SecurityRequirement[];
}

/**
 * One security scheme, 2.0 and 3.x alike: the runtime's `SecuritySchemeDefinition` (the same
 * OpenAPI fields, already normalized) without `env`, which the plan decides (variable names and
 * prefix), plus where it came from and its description.
 */
export interface SecuritySchemeIR extends Omit<SecuritySchemeDefinition, "env"> {
  pointer: string;
  description?: string;
}

/** A named, normalized schema. */
export interface SchemaIR {
  name: string;
  pointer: string;
  schema: JsonSchema;
}

/** An upstream server URL with its variables substituted by their defaults. */
export interface ServerIR {
  pointer: string;
  url: string;
  /** The URL as written, with `{name}` placeholders (same as `url` when it has no variables). */
  template: string;
  /** The server's variables in order of first use in the template. */
  variables: ServerVariableIR[];
  description?: string;
}

/** One OpenAPI server variable (`servers[].variables.<name>`). */
export interface ServerVariableIR {
  name: string;
  /** The spec's default (required by OpenAPI; missing in broken specs, then the user must set it). */
  default?: string;
  /** Allowed values, when the spec restricts them. */
  enum?: string[];
  description?: string;
}

/** One operation = one HTTP method on one path. */
export interface OperationIR {
  pointer: string;
  method: HttpMethod;
  /** Path template as in the spec, e.g. `/pets/{petId}`. */
  path: string;
  operationId?: string;
  tags: string[];
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** Path-level and operation-level parameters merged (operation wins), in spec order. */
  parameters: ParameterIR[];
  requestBody?: RequestBodyIR;
  responses: ResponseIR[];
  /** Operation-level `security`, when the operation declares one (`[]` = no credentials). */
  security?: SecurityRequirement[];
  /** The operation's `x-mcp-pagination` extension, unvalidated. */
  paginationHint?: unknown;
  /**
   * The API's own names for the operation besides its summary (for search): the `x-displayName` of
   * each of its tags (top-level `tags`) and its own short `x-` strings whose key ends in `name`,
   * `title`, `label`, `summary` or `action` (`x-displayName`, `x-linode-cli-action`). Absent: none.
   */
  titles?: string[];
  /** What its `x-mcp-*` extensions (and its tags') ask of its tool (mcp-extensions.ts); absent: nothing. */
  mcp?: McpOverrides;
}

/** One parameter, with OpenAPI 3 serialization facts (2.0 `collectionFormat` translated). */
export interface ParameterIR {
  pointer: string;
  name: string;
  in: ParameterLocation;
  required: boolean;
  description?: string;
  deprecated: boolean;
  style: ParameterStyle;
  explode: boolean;
  allowReserved: boolean;
  /** The spec allows an empty value (`allowEmptyValue: true`, query parameters only). */
  allowEmptyValue?: boolean;
  /** Normalized schema; `$ref`s point into `ApiIR.schemas`. */
  schema: JsonSchema;
  /** The `x-mcp-header` extension value, unvalidated. */
  mcpHeader?: unknown;
}

/** A request body: one entry per media type. */
export interface RequestBodyIR {
  pointer: string;
  required: boolean;
  /**
   * The spec says `required: false` in so many words (not just by omission): sending no body at
   * all is meant to be fine. See planBody for what the planner makes of an omitted `required`.
   */
  declaredOptional?: boolean;
  description?: string;
  contents: MediaIR[];
}

/** A schema for one media type. */
export interface MediaIR {
  pointer: string;
  mediaType: string;
  schema?: JsonSchema;
  /** Request bodies: the `encoding` map (form fields' style/explode/contentType), by property. */
  encoding?: Record<string, FieldEncoding>;
}

/** One response by status code (`200`, `2XX`, `default`). */
export interface ResponseIR {
  pointer: string;
  status: string;
  description?: string;
  contents: MediaIR[];
  /** Names of the response headers the spec declares, lower case (e.g. `link`). */
  headers?: string[];
}
