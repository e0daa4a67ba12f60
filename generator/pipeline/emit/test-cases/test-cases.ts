import { getOwn, type JsonSchema, setOwn, splitPathTemplate } from "../../../shared/contract.js";
import { documentedOutput } from "../../plan/output-schema.js";
import type { ProjectPlan, ToolPlan } from "../../plan/plan-types.js";
import { Sampler } from "./sample-value.js";

/** What the spec says one tool's upstream request must look like, and a call that produces one. */
export interface ToolCase {
  tool: string;
  /** Valid arguments: every required argument, from examples or schemas. */
  arguments: Record<string, unknown>;
  request: {
    method: string;
    /** Path template without any query written into it, e.g. `/pets/{petId}`. */
    path: string;
    /**
     * Required query parameters and headers (lower case). A query entry is a name, or for an object
     * sent in form style exploded (its properties spread: `?a=1&b=2`, the name never appears) the
     * property names one of which must be there.
     */
    query: Array<string | { name: string; anyOf: string[] }>;
    headers: string[];
    /** JSON Schema the body must satisfy (JSON media types), when the operation has a body. */
    body?: { mediaType: string; required: boolean; schema?: JsonSchema };
  };
  /**
   * What the stub upstream answers. `fallbackKey` (tools with an output schema) is the key the
   * server uses for answers that do not match the documented schema: the test asserts it is absent.
   */
  response: { status: number; body: unknown; fallbackKey?: string };
  /**
   * Why the case cannot run here (the generated test reports it as skipped, with this reason): the
   * tool needs a client certificate, or no sample its input schema accepts was found (a schema
   * such as `allOf: [{type: string}, {type: integer}]` accepts none).
   */
  skip?: string;
}

/** A call the server must refuse before any upstream request. */
export interface RefusedCase {
  tool: string;
  arguments: Record<string, unknown>;
  argument: string;
  /** `invalid`: the argument has a value its schema refuses; `missing`: a required argument is left out. */
  problem: "invalid" | "missing";
}

/** A call whose upstream answers a documented 4xx: the server must report it as `isError`. */
export interface UpstreamErrorCase {
  tool: string;
  arguments: Record<string, unknown>;
  status: number;
}

/** The file `test/cases.json`: one case per tool, calls that must be refused, one upstream error. */
export interface TestCases {
  cases: ToolCase[];
  /** Placeholder credentials (variable → value) so tools that need auth reach the stub upstream. */
  credentials?: Record<string, string>;
  refused?: RefusedCase[];
  upstreamError?: UpstreamErrorCase;
}

type Schema = Record<string, unknown>;

function bodySchema(tool: ToolPlan): JsonSchema | undefined {
  const body = tool.http.body;
  if (!body || !/json/i.test(body.mediaType)) return undefined;
  const input = tool.inputSchema as Schema;
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const defs = input.$defs ? { $defs: input.$defs } : {};
  if (body.kind === "whole") {
    const schema = properties[body.argument];
    return typeof schema === "object" ? { ...defs, ...schema } : schema;
  }
  const required = new Set((input.required as string[] | undefined) ?? []);
  const mapped: Record<string, JsonSchema> = {};
  const requiredBody: string[] = [];
  for (const [argument, name] of Object.entries(body.properties)) {
    setOwn(mapped, name, (getOwn(properties, argument) as JsonSchema | undefined) ?? {});
    if (required.has(argument)) requiredBody.push(name);
  }
  return {
    ...defs,
    type: "object",
    properties: mapped,
    ...(requiredBody.length > 0 ? { required: requiredBody } : {}),
  };
}

/** The required query items of a tool's request (see `ToolCase.request.query`). */
function requiredQuery(tool: ToolPlan, fixed: string[]): ToolCase["request"]["query"] {
  const input = tool.inputSchema as Schema;
  const entries: ToolCase["request"]["query"] = [];
  const names = new Set<string>();
  for (const param of tool.http.parameters) {
    if (param.in !== "query" || !param.required || names.has(param.name)) continue;
    names.add(param.name);
    const schema = resolveLocal(getOwn((input.properties ?? {}) as object, param.argument), input);
    const spread =
      (param.style ?? "form") === "form" &&
      param.explode !== false &&
      (schema.type === "object" || schema.properties !== undefined);
    if (!spread) entries.push(param.name);
    else if (schema.properties && Object.keys(schema.properties).length > 0)
      entries.push({ name: param.name, anyOf: Object.keys(schema.properties) });
  }
  for (const name of fixed) if (!names.has(name)) entries.push(name);
  return entries;
}

/** A schema with a local `#/$defs/…` ref resolved against the input schema (one level). */
function resolveLocal(schema: unknown, input: Schema): Schema {
  const node = (schema ?? {}) as Schema;
  const ref = typeof node.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  const target = ref
    ? (getOwn((input.$defs ?? {}) as object, decodeURIComponent(ref)) as Schema | undefined)
    : undefined;
  return target ? { ...target, ...node } : node;
}

/** Media types in which a body without fields has nothing on the wire (an empty form, no parts). */
const FORM_BODY = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * The arguments with one field of a required form body added when the sample has none: the
 * sample takes required arguments only, and a form body whose fields are all optional would go out
 * empty, which an API that requires the body reads as no body. The first field the input schema
 * accepts a sample of is taken.
 */
function withFormField(tool: ToolPlan, args: Record<string, unknown>, sampler: Sampler): Record<string, unknown> {
  const body = tool.http.body;
  if (!body || body.kind !== "properties" || !body.required || !FORM_BODY.test(body.mediaType)) return args;
  const fields = Object.keys(body.properties);
  if (fields.some((argument) => getOwn(args, argument) !== undefined)) return args;
  const input = tool.inputSchema as Schema;
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  for (const argument of fields) {
    const candidate = { ...args };
    setOwn(candidate, argument, sampler.sample(getOwn(properties, argument) as JsonSchema | undefined, input));
    if (sampler.accepts(input, candidate)) return candidate;
  }
  return args;
}

/** Why a tool's case cannot run against the test's plain-HTTP stand-in, if it cannot (see `ToolCase.skip`). */
function skipReason(tool: ToolPlan, plan: ProjectPlan, sampler: Sampler, args: unknown): string | undefined {
  const types = new Map(plan.securitySchemes.map((scheme) => [scheme.key, scheme.type]));
  const alternatives = tool.http.security ?? [];
  if (
    alternatives.length > 0 &&
    alternatives.every((requirement) => Object.keys(requirement).some((key) => types.get(key) === "mutualTLS"))
  ) {
    return "the operation needs a client certificate (mutual TLS), and the test's stand-in upstream is plain HTTP";
  }
  if (!sampler.accepts(tool.inputSchema, args))
    return "no sample value satisfies this tool's input schema (the schema may allow none, e.g. an allOf of two types), so no call is made";
  return undefined;
}

function toolCase(tool: ToolPlan, plan: ProjectPlan, sampler: Sampler): ToolCase {
  const input = tool.inputSchema as Schema;
  const output = tool.outputSchema as Schema | undefined;
  const wrap = tool.http.response.wrapKey;
  const documented = tool.outputSchema ? (documentedOutput(tool.outputSchema) as Schema) : undefined;
  const wrapped =
    documented && wrap ? (documented.properties as Record<string, JsonSchema> | undefined)?.[wrap] : undefined;
  const responseBody = documented ? sampler.sample(wrap ? (wrapped ?? {}) : (documented as JsonSchema), output) : {};
  const body = tool.http.body;
  const schema = bodySchema(tool);
  const split = splitPathTemplate(tool.http.path);
  const args = withFormField(tool, sampler.sample(input, input) as Record<string, unknown>, sampler);
  const skip = skipReason(tool, plan, sampler, args);
  return {
    tool: tool.name,
    arguments: args,
    request: {
      method: tool.http.method.toUpperCase(),
      path: split.path,
      // Required query parameters, and those the path template fixes (`/search#format=sdk`).
      query: requiredQuery(tool, split.names),
      headers: tool.http.parameters.filter((p) => p.in === "header" && p.required).map((p) => p.name.toLowerCase()),
      ...(body
        ? { body: { mediaType: body.mediaType, required: body.required, ...(schema !== undefined ? { schema } : {}) } }
        : {}),
    },
    response: {
      status: 200,
      body: responseBody,
      ...(tool.http.response.fallbackKey ? { fallbackKey: tool.http.response.fallbackKey } : {}),
    },
    ...(skip ? { skip } : {}),
  };
}

/**
 * Calls the input schema refuses (checked with the same validator settings as the server): one
 * argument of the wrong type (or outside its enum), and one call without a required argument, each
 * on the first tool that allows it.
 */
function refusedCases(tools: ToolPlan[], cases: ToolCase[], sampler: Sampler): RefusedCase[] {
  const refused: RefusedCase[] = [];
  const invalid = firstOf(tools, cases, (tool, i) => {
    const input = tool.inputSchema as Schema;
    for (const [argument, schema] of Object.entries((input.properties ?? {}) as Record<string, JsonSchema>)) {
      const bad = sampler.invalid(schema, input);
      const args = { ...cases[i]!.arguments, [argument]: bad };
      if (bad !== undefined && !sampler.accepts(input, args))
        return { tool: tool.name, argument, arguments: args, problem: "invalid" as const };
    }
    return undefined;
  });
  if (invalid) refused.push(invalid);
  const missing = firstOf(tools, cases, (tool, i) => {
    const input = tool.inputSchema as Schema;
    for (const argument of (input.required as string[] | undefined) ?? []) {
      const args = { ...cases[i]!.arguments };
      delete args[argument];
      if (!sampler.accepts(input, args))
        return { tool: tool.name, argument, arguments: args, problem: "missing" as const };
    }
    return undefined;
  });
  if (missing) refused.push(missing);
  return refused;
}

/** The first tool (among those whose case runs) for which `pick` finds something. */
function firstOf<T>(
  tools: ToolPlan[],
  cases: ToolCase[],
  pick: (tool: ToolPlan, index: number) => T | undefined,
): T | undefined {
  for (const [i, tool] of tools.entries()) {
    if (cases[i]!.skip !== undefined) continue;
    const found = pick(tool, i);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first tool that documents a 4xx answer: the stub answers that status, the server must say isError. */
function upstreamErrorCase(tools: ToolPlan[], cases: ToolCase[]): UpstreamErrorCase | undefined {
  return firstOf(tools, cases, (tool, i) => {
    const status = tool.errorStatuses?.[0];
    return status !== undefined ? { tool: tool.name, arguments: cases[i]!.arguments, status } : undefined;
  });
}

/** The data of the generated `npm test`, derived from the plan (that is, from the spec). */
export function testCases(plan: ProjectPlan): TestCases {
  const sampler = new Sampler();
  const cases = plan.tools.map((tool) => toolCase(tool, plan, sampler));
  const refused = refusedCases(plan.tools, cases, sampler);
  const upstreamError = upstreamErrorCase(plan.tools, cases);
  const credentials: Record<string, string> = {};
  for (const scheme of plan.securitySchemes) {
    for (const role of ["token", "username", "password"] as const) {
      const name = scheme.env[role];
      if (name) credentials[name] = `test-${role}`;
    }
  }
  return {
    cases,
    ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
    ...(refused.length > 0 ? { refused } : {}),
    ...(upstreamError ? { upstreamError } : {}),
  };
}
