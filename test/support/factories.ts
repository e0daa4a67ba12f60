/** Factories for IR nodes, so planner tests need no YAML. */
import { customCode } from "../../runtime/src/features/custom/index.js";
import type { JsonSchema } from "../../runtime/src/api/types.js";
import type { FeaturePlugs } from "../../runtime/src/cli/features.js";
import { code } from "../../runtime/src/features/code/index.js";
import { search } from "../../runtime/src/features/search/index.js";
import type { SurfaceMakers } from "../../runtime/src/server/surfaces.js";
import { LegacySseEndpoints } from "../../runtime/src/features/legacy-sse/sse-legacy.js";
import { upstreamCredentials } from "../../runtime/src/features/auth/index.js";
import { cursorPaging } from "../../runtime/src/features/pagination/index.js";
import { legacyClientRequests } from "../../runtime/src/features/client-requests/client-requests.js";
import type { MakeHttpEndpoints } from "../../runtime/src/transport/http-plugs.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";
import { McpServer, type McpServerOptions } from "../../runtime/src/server/server.js";
import { rateLimit } from "../../runtime/src/features/rate-limit/index.js";
import type {
  ApiIR,
  OperationIR,
  ParameterIR,
  RequestBodyIR,
  ResponseIR,
  SchemaIR,
  SecuritySchemeIR,
} from "../../generator/pipeline/ir/ir-types.js";

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

/**
 * The meta tools of the search and code surfaces, as a server generated with the search and code
 * features gets them (`surfaces` of McpServerOptions); `codeFlags` are code mode's flags.
 */
export function featureSurfaces(codeFlags: Record<string, string> = {}): SurfaceMakers {
  const context = {
    flags: codeFlags,
    env: {},
    info: { name: "test", version: "0.0.0" },
    http: false,
    logger: silentLogger,
  };
  return { ...(search.plugs(context) as FeaturePlugs).surfaces, ...(code.plugs(context) as FeaturePlugs).surfaces };
}

/** The `auto` surface's choice of feature search, as a server generated with it gets it. */
export const searchAutoSurface = (
  search.plugs({
    flags: {},
    env: {},
    info: { name: "test", version: "0.0.0" },
    http: false,
    logger: silentLogger,
  }) as FeaturePlugs
).autoSurface;

/** The legacy HTTP+SSE endpoints, as `startHttp`'s `endpoints` of a server generated with that feature. */
export const legacySseEndpoints: MakeHttpEndpoints = (server, receive, logger) =>
  new LegacySseEndpoints(server, receive, logger);

/**
 * The upstream features a generated server has when its API needs them (`auth` for security
 * schemes, `pagination` for paging operations), as McpServerOptions; spread into a test server's options.
 */
/** The slots a typical generated server fills (legacy client requests come with confirm and user-oauth; custom code with its own code). */
export const apiFeatures = {
  credentials: upstreamCredentials(),
  paging: cursorPaging,
  clientRequests: legacyClientRequests,
  customCode,
} as const;

/** A server (`options` plus {@link apiFeatures}) with feature rate-limit's plugs for `flags`, as `main` would start it. */
export async function rateLimitedServer(
  flags: Record<string, string | string[]>,
  options: McpServerOptions,
): Promise<McpServer> {
  const plugs = await rateLimit.plugs({
    flags,
    env: {},
    info: options.info,
    http: true,
    logger: options.logger ?? silentLogger,
  });
  return new McpServer({ ...apiFeatures, ...plugs, ...options });
}
