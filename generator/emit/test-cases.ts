import type { JsonSchema } from "../../runtime/src/types.js";
import { documentedOutput } from "../plan/output-schema.js";
import type { ProjectPlan, ToolPlan } from "../plan/types.js";
import { invalidValue, sampleValue } from "./sample-value.js";
import { getOwn, setOwn } from "../../runtime/src/own.js";

/** What the spec says one tool's upstream request must look like, and a call that produces one. */
export interface ToolCase {
  tool: string;
  /** Valid arguments: every required argument, from examples or schemas. */
  arguments: Record<string, unknown>;
  request: {
    method: string;
    /** Path template, e.g. `/pets/{petId}`. */
    path: string;
    /** Required query parameters and headers (lower case). */
    query: string[];
    headers: string[];
    /** JSON Schema the body must satisfy (JSON media types), when the operation has a body. */
    body?: { mediaType: string; required: boolean; schema?: JsonSchema };
  };
  /** What the stub upstream answers. */
  response: { status: number; body: unknown };
}

/** The file `test/cases.json`: one case per tool plus one call that must be refused. */
export interface TestCases {
  cases: ToolCase[];
  /** Placeholder credentials (variable → value) so tools that need auth reach the stub upstream. */
  credentials?: Record<string, string>;
  invalid?: { tool: string; arguments: Record<string, unknown>; argument: string };
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
  return { ...defs, type: "object", properties: mapped, ...(requiredBody.length > 0 ? { required: requiredBody } : {}) };
}

function toolCase(tool: ToolPlan): ToolCase {
  const input = tool.inputSchema as Schema;
  const output = tool.outputSchema as Schema | undefined;
  const wrap = tool.http.response.wrapKey;
  const documented = tool.outputSchema ? (documentedOutput(tool.outputSchema) as Schema) : undefined;
  const wrapped = documented && wrap ? (documented.properties as Record<string, JsonSchema> | undefined)?.[wrap] : undefined;
  const responseBody = documented ? sampleValue(wrap ? (wrapped ?? {}) : (documented as JsonSchema), output) : {};
  const body = tool.http.body;
  const schema = bodySchema(tool);
  return {
    tool: tool.name,
    arguments: sampleValue(input, input) as Record<string, unknown>,
    request: {
      method: tool.http.method.toUpperCase(),
      path: tool.http.path,
      query: tool.http.parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name),
      headers: tool.http.parameters.filter((p) => p.in === "header" && p.required).map((p) => p.name.toLowerCase()),
      ...(body ? { body: { mediaType: body.mediaType, required: body.required, ...(schema !== undefined ? { schema } : {}) } } : {}),
    },
    response: { status: 200, body: responseBody },
  };
}

/** One call with an argument of the wrong type (or outside its enum), on the first tool that has one. */
function invalidCase(tools: ToolPlan[], cases: ToolCase[]): TestCases["invalid"] {
  for (const [i, tool] of tools.entries()) {
    const input = tool.inputSchema as Schema;
    for (const [argument, schema] of Object.entries((input.properties ?? {}) as Record<string, JsonSchema>)) {
      const bad = invalidValue(schema, input);
      if (bad !== undefined) return { tool: tool.name, argument, arguments: { ...cases[i]!.arguments, [argument]: bad } };
    }
  }
  return undefined;
}

/** The data of the generated `npm test`, derived from the plan (that is, from the spec). */
export function testCases(plan: ProjectPlan): TestCases {
  const cases = plan.tools.map(toolCase);
  const invalid = invalidCase(plan.tools, cases);
  const credentials: Record<string, string> = {};
  for (const scheme of plan.securitySchemes) {
    for (const role of ["token", "username", "password"] as const) {
      const name = scheme.env[role];
      if (name) credentials[name] = `test-${role}`;
    }
  }
  return { cases, ...(Object.keys(credentials).length > 0 ? { credentials } : {}), ...(invalid ? { invalid } : {}) };
}
