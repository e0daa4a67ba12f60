/** The contract between generated code and the runtime: a tool is plain data (`data/tools.json`) the runtime interprets. */

/** A JSON Schema (2020-12) document or sub-schema, as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** A JSON Schema whose root is an object schema, as MCP requires for tool input/output. */
export interface ObjectJsonSchema {
  type: "object";
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** MCP tool annotations (hints for clients; never trusted for security). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
export type ParameterLocation = "path" | "query" | "header" | "cookie";
export type ParameterStyle = "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

/** How one tool argument becomes one HTTP parameter. */
export interface ParameterBinding {
  /** Property name in the tool's input (may differ from `name` after collision handling). */
  argument: string;
  /** Parameter name on the wire (path placeholder, query key, header or cookie name). */
  name: string;
  in: ParameterLocation;
  style: ParameterStyle;
  explode: boolean;
  /** Query only: reserved characters are sent unencoded. */
  allowReserved?: boolean;
  required: boolean;
}

/**
 * The request body: one argument (`whole`), or properties lifted into the input (argument name →
 * body property name). `binary` / `files`: file content passed as base64 or a `data:` URI.
 */
export type BodyBinding =
  | {
      kind: "whole";
      argument: string;
      mediaType: string;
      required: boolean;
      binary?: boolean;
      encoding?: Record<string, FieldEncoding>;
    }
  | {
      kind: "properties";
      properties: Record<string, string>;
      mediaType: string;
      required: boolean;
      files?: string[];
      encoding?: Record<string, FieldEncoding>;
    };

/** The OpenAPI `encoding` of one form or multipart body field (by body property name). */
export interface FieldEncoding {
  style?: ParameterStyle;
  explode?: boolean;
  /** A JSON media type here sends the field as JSON text. */
  contentType?: string;
}

/** How the upstream response body becomes `structuredContent`. */
export interface ResponseBinding {
  /** A 2xx JSON body that is not an object goes in `{ [wrapKey]: value }` (`structuredContent` is an object). */
  wrapKey?: string;
  /**
   * A response unlike the documented schema goes in `{ [fallbackKey]: { reason: "response", status,
   * contentType, body, problems } }`; a body that shaping made unlike it, with `reason` `"budget"` or
   * `"fields"` (upstream/result-shape.ts).
   */
  fallbackKey?: string;
  /** Media types the operation can answer with, in the order sent in `Accept`. */
  accept: string[];
  /** The input property by which a caller chooses the result's fields (`_fields`), when the operation answers JSON. */
  fieldsArgument?: string;
  /** The paths that argument may name (from the response schema; `a.*`: anything below `a`); absent: any. */
  fields?: string[];
  /** The paths a call that names none gets (the spec's `x-mcp-fields`). */
  defaultFields?: string[];
  /** Tokens this tool's results may take, instead of the server's budget (`x-mcp-result-budget`). */
  budgetTokens?: number;
}

/**
 * One upstream security scheme; `env` maps a credential's role to its environment variable
 * (`token`, basic `username`/`password`, OAuth client `clientId`/`clientSecret`/`scopes`, TLS `cert`/`key`).
 */
export interface SecuritySchemeDefinition {
  /** The scheme's key in the spec. */
  key: string;
  type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  /** apiKey: where the key goes, under which name. */
  in?: "header" | "query" | "cookie";
  name?: string;
  /** http: the auth scheme, lower case (`bearer`, `basic`, …). */
  scheme?: string;
  /** oauth2: token endpoint of the client-credentials flow; openIdConnect: discovery document. */
  tokenUrl?: string;
  openIdConnectUrl?: string;
  /** oauth2: the authorization code flow, by which each user signs in (feature `user-oauth`). */
  authorizationCode?: { authorizationUrl: string; tokenUrl: string };
  env: Partial<
    Record<"token" | "username" | "password" | "clientId" | "clientSecret" | "scopes" | "cert" | "key", string>
  >;
}

/** One alternative of an operation's security (schemes applied together, with their scopes); {} is anonymous. */
export type SecurityRequirement = Record<string, string[]>;

/**
 * How an operation pages (feature `pagination`: a `cursor` input, a `nextCursor` output): a body
 * token (`cursor`, or Stripe's `hasMorePath` + last `idField`), a `page` number, an `offset`, the
 * `link` header, or a `nextUrl` in the body.
 */
export interface PaginationBinding {
  style: "cursor" | "page" | "offset" | "link" | "nextUrl";
  /** Input property that carries the opaque cursor. */
  cursorArgument: string;
  /** cursor/page/offset: the input property that receives the next token, page or offset. */
  targetArgument?: string;
  /** cursor: where the next token is in the body; nextUrl: where the next URL is. */
  nextPath?: string[];
  hasMorePath?: string[];
  idField?: string;
  /** Where the page's items are in the body (`[]`: the body is the array). */
  itemsPath?: string[];
  /** page/offset: the input property holding the page size, if any. */
  limitArgument?: string;
  /** page: the first page number when the argument is absent (default 1). */
  firstPage?: number;
  /** Input property asking for several pages in one call, if offered. */
  maxPagesArgument?: string;
}

/** How a tool call becomes an upstream HTTP request. */
export interface HttpBinding {
  method: HttpMethod;
  /** Path template relative to the base URL, e.g. `/pets/{petId}`. */
  path: string;
  parameters: ParameterBinding[];
  body?: BodyBinding;
  response: ResponseBinding;
  /** Effective security requirements; absent or empty means the operation needs no credentials. */
  security?: SecurityRequirement[];
  /** How the operation pages, when it does. */
  pagination?: PaginationBinding;
}

/** What `tools/list` shows of a tool, whatever implements it. */
export interface ToolMetadata {
  name: string;
  title?: string;
  description: string;
  inputSchema: ObjectJsonSchema;
  outputSchema?: ObjectJsonSchema;
  annotations?: ToolAnnotations;
  /** Protocol metadata: the link to a tool's view (`ui`) for clients that render views (feature `apps`). */
  _meta?: Record<string, unknown>;
}

/** One MCP tool, as data (its types for user code are the project's `ToolInputs`/`ToolOutputs`). */
export interface ToolDefinition extends ToolMetadata {
  http: HttpBinding;
  /** Each call needs the user's confirmation first (the spec's `x-mcp-confirm`; feature `confirm`). */
  confirm?: boolean;
  /** The operation's OpenAPI tags (toolset filters, search). */
  tags?: string[];
  /** The operation's full text when `description` was shortened for `tools/list` (served as the operation's documentation resource). */
  documentation?: string;
}

/** A server URL template (`https://{region}.api.example.com`) and its variables (feature `server-vars`). */
export interface ServerUrlDefinition {
  template: string;
  variables: Array<{ name: string; env: string; default?: string; enum?: string[]; description?: string }>;
}

/** Static facts about the generated server, emitted by the generator. */
export interface ServerInfo {
  /** npm package name and MCP `serverInfo.name`. */
  name: string;
  version: string;
  title?: string;
  description?: string;
  /** Upstream base URL used when neither `--base-url` nor `API_BASE_URL` is given. */
  defaultBaseUrl?: string;
  /** The spec's server URL template, when it has variables the user may set (see server-url.ts). */
  serverUrl?: ServerUrlDefinition;
  /** Upstream security schemes the tools refer to by key. */
  securitySchemes?: SecuritySchemeDefinition[];
  /** The surface served when neither `--surface` nor `MCP_SURFACE` is given (default `auto`). */
  defaultSurface?: "all" | "search" | "code" | "auto";
  /** The result budget in tokens when neither `--result-budget` nor `MCP_RESULT_BUDGET` is given (mcp-gen's `--result-budget`). */
  resultBudget?: number;
  /** The environment variables a user sets (credentials, base URL, server variables): install snippets list the required ones. */
  env?: ConfigVariable[];
}

/** An environment variable of the server, as install snippets present it. */
export interface ConfigVariable {
  name: string;
  required: boolean;
  /** A credential: the snippet holds a placeholder (VS Code: a password input), never an example. */
  secret?: boolean;
  /** An example value for a setting that is not secret. */
  example?: string;
  description?: string;
}
