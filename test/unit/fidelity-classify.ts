/**
 * The fidelity runner's reading of Prism's JSON log (prism-log.ts) and its rules for what Prism
 * cannot judge (run-spec.ts), on log records shaped like Prism 5's, plus the seeded sampler.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolPlan } from "../../generator/pipeline/plan/plan-types.js";
import { parseRecords, prismRequests } from "../fidelity/prism-log.js";
import { dummyCredentials, filesAsContent, prismCannotJudge, withoutServerCursor } from "../fidelity/run-spec.js";
import { pickTools, sampleArguments } from "../fidelity/sample.js";
import type { SecuritySchemeDefinition } from "../../runtime/src/api/types.js";
import { sampleInWorker, stopSampler } from "../fidelity/sample-worker.js";

const received = (path: string, query: Record<string, unknown> = {}, headers: Record<string, string> = {}): string =>
  JSON.stringify({
    level: "info",
    name: "HTTP SERVER",
    msg: "Request received",
    input: { method: "get", url: { path, query }, headers, body: null },
  });
const line = (level: string, name: string, msg: string): string => JSON.stringify({ level, name, msg });

test("a request that passed validation and was answered is accepted", () => {
  const [request] = prismRequests(
    parseRecords([
      received("/pets", { limit: "5" }, { accept: "application/json" }),
      line("success", "VALIDATOR", "The request passed the validation rules. Looking for the best response"),
      line("info", "NEGOTIATOR", '> Responding with "200"'),
    ]),
  );
  assert.is(request!.verdict, "accepted");
  assert.ok(request!.complete);
  assert.equal(request!.query, { limit: "5" });
  assert.is(request!.accept, "application/json");
});

test("request violations are refusals and keep their text (Violation lines win over the validator's)", () => {
  const [request] = prismRequests(
    parseRecords([
      received("/pets"),
      line("warn", "VALIDATOR", "Request did not pass the validation rules"),
      line("error", "VALIDATOR", "Request query parameter limit must be integer"),
      line("info", "NEGOTIATOR", '> Responding with "422"'),
      line("error", "VALIDATOR", "Violation: request.query.limit Request query parameter limit must be integer"),
    ]),
  );
  assert.is(request!.verdict, "refused");
  assert.equal(request!.problems, ["request.query.limit Request query parameter limit must be integer"]);
});

test("406 and unknown routes are refusals; a failing mock response is a Prism limitation", () => {
  const requests = prismRequests(
    parseRecords([
      received("/pets/1"),
      line("success", "VALIDATOR", "The request passed the validation rules. Looking for the best response"),
      line(
        "error",
        "HTTP SERVER",
        "Request terminated with error: https://stoplight.io/prism/errors#NOT_ACCEPTABLE: The server cannot produce a representation for your accept header",
      ),
      received("/nope"),
      line(
        "error",
        "HTTP SERVER",
        "Request terminated with error: https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR: Route not resolved, no path matched",
      ),
      received("/pets"),
      line("success", "VALIDATOR", "The request passed the validation rules. Looking for the best response"),
      line("info", "NEGOTIATOR", '> Responding with "200"'),
      line(
        "error",
        "HTTP SERVER",
        "Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid",
      ),
      "not json",
    ]),
  );
  assert.equal(
    requests.map((r) => r.verdict),
    ["refused", "refused", "prism-limitation"],
  );
  assert.match(requests[0]!.problems[0]!, /^NOT_ACCEPTABLE/);
  assert.equal(requests[2]!.limitations, ["VIOLATIONS: Request/Response not valid"]);
});

const tool = (path: string, pathParams: string[] = []): ToolPlan =>
  ({
    name: "t",
    http: {
      method: "get",
      path,
      parameters: pathParams.map((name) => ({
        argument: name,
        name,
        in: "path",
        style: "simple",
        explode: false,
        required: true,
      })),
      response: { accept: [] },
    },
  }) as unknown as ToolPlan;
const refused = (problems: string[], contentType?: string) => ({
  method: "post",
  path: "/x",
  query: {},
  verdict: "refused" as const,
  problems,
  limitations: [],
  complete: true,
  ...(contentType ? { contentType } : {}),
});

/** The tool at "/x" with the given request body plan. */
const withBody = (body: object): ToolPlan =>
  ({ ...tool("/x"), http: { ...tool("/x").http, body } }) as unknown as ToolPlan;

test("what Prism cannot judge: fragment/query path keys, unparsed body media types, another operation's template", () => {
  assert.match(
    prismCannotJudge(tool("/analyze#overload=stream"), refused(["request Supported content types: application/json"]))!,
    /fragment/,
  );
  assert.match(
    prismCannotJudge(
      tool("/x"),
      refused(["request.body Request body must be object"], "application/xml; charset=utf-8"),
    )!,
    /application\/xml/,
  );
  // A violation of the body's root is logged by the validator without a location.
  assert.match(
    prismCannotJudge(tool("/x"), refused(["Request body must be object"], "text/json"))!,
    /cannot parse text\/json/,
  );
  assert.is(prismCannotJudge(tool("/x"), refused(["Request body must be object"], "application/json")), undefined);
  assert.match(
    prismCannotJudge(
      tool("/v1/{entityType}:import", ["entityType"]),
      refused(["Request path must have required property 'name'"]),
    )!,
    /another operation/,
  );
  const withBody = {
    ...tool("/user"),
    http: {
      ...tool("/user").http,
      body: { kind: "whole", argument: "body", mediaType: "application/json", required: true },
    },
  } as unknown as ToolPlan;
  assert.match(
    prismCannotJudge(withBody, refused(["request No supported content types, but request included a non-empty body"]))!,
    /no consumes/,
  );
  assert.is(
    prismCannotJudge(
      tool("/user"),
      refused(["request No supported content types, but request included a non-empty body"]),
    ),
    undefined,
    "no body in the spec: sending one is ours",
  );
  assert.match(
    prismCannotJudge(
      tool("/x"),
      refused(["request.header Request header must have required property 'authorization'"]),
    )!,
    /Authorization/,
  );
  assert.match(
    prismCannotJudge(
      tool("/x"),
      refused([
        "Request header parameter content.0 must be object",
        "Request header parameter content.1 must be object",
      ]),
    )!,
    /array of objects/,
  );
  assert.match(
    prismCannotJudge(tool("/x"), refused(["request.body Request body must match exactly one schema in oneOf"]), {
      discriminated: true,
    })!,
    /discriminator/,
  );
  assert.is(
    prismCannotJudge(tool("/x"), refused(["request.body Request body must match exactly one schema in oneOf"])),
    undefined,
    "without a discriminator a oneOf refusal is ours",
  );
  // Form and multipart fields: Prism reads them only by their encoding style (issue 36, class 5).
  const facts = { discriminated: false };
  const formTool = (mediaType: string, encoding: Record<string, { style: string; explode?: boolean }> = {}) =>
    ({
      ...tool("/x"),
      http: {
        ...tool("/x").http,
        body: { kind: "properties", properties: { tags: "tags", ids: "ids" }, mediaType, required: true, encoding },
      },
    }) as unknown as ToolPlan;
  const form = "application/x-www-form-urlencoded";
  const arrayProblem = "request.body Request body property tags must be array";
  assert.match(
    prismCannotJudge(formTool(form), refused([arrayProblem], form), facts, { tags: ["a"] })!,
    /encoding style/,
  );
  assert.match(
    prismCannotJudge(formTool(form), refused(["request.body Request body property tags must be object"], form))!,
    /encoding style/,
  );
  // With a style Prism splits the field: its refusal is ours, unless the field was not sent.
  const styled = formTool(form, { tags: { style: "pipeDelimited" } });
  assert.is(prismCannotJudge(styled, refused([arrayProblem], form), facts, { tags: ["a", "b"] }), undefined);
  assert.match(prismCannotJudge(styled, refused([arrayProblem], form), facts, {})!, /unsent delimited/);
  // Swagger 2.0's csv (form without explode) is Prism's comma-delimited style: the same when unsent.
  const csv = formTool(form, { tags: { style: "form", explode: false } });
  assert.match(prismCannotJudge(csv, refused([arrayProblem], form), facts, {})!, /unsent delimited/);
  assert.is(prismCannotJudge(csv, refused([arrayProblem], form), facts, { tags: ["a", "b"] }), undefined);
  const multipart = "multipart/form-data; boundary=x";
  assert.match(
    prismCannotJudge(
      formTool(multipart, { tags: { style: "form", explode: false } }),
      refused(["request.body.tags Reserved characters used in request body"], multipart),
    )!,
    /URL-reserved/,
  );
  // Prism drops an empty multipart part, then misses the required field; a field not sent is ours.
  const missingTags = refused(["request.body Request body must have required property 'tags'"], multipart);
  assert.match(prismCannotJudge(formTool(multipart), missingTags, facts, { tags: [""] })!, /empty multipart parts/);
  assert.match(prismCannotJudge(formTool(multipart), missingTags, facts, { tags: "" })!, /empty multipart parts/);
  assert.is(prismCannotJudge(formTool(multipart), missingTags, facts, {}), undefined, "an unsent field is ours");
  assert.is(prismCannotJudge(formTool(multipart), missingTags, facts, { tags: ["", "a"] }), undefined);
  assert.is(
    prismCannotJudge(
      formTool(form),
      refused(["request.body Request body must have required property 'tags'"], form),
      facts,
      {
        tags: [""],
      },
    ),
    undefined,
    "in a form body an empty value is still sent",
  );
  assert.is(
    prismCannotJudge(formTool(form), refused(["request.body.tags Reserved characters used in request body"], form)),
    undefined,
    "in a form body reserved characters must be encoded",
  );
  assert.is(prismCannotJudge(tool("/x"), refused([arrayProblem], "application/json")), undefined);
  // A nullable query array: Prism splits a value only when the type is exactly array.
  const queryTool = {
    ...tool("/x"),
    http: {
      ...tool("/x").http,
      parameters: [{ argument: "ids", name: "ids", in: "query", style: "form", explode: true, required: false }],
    },
  } as unknown as ToolPlan;
  const nullable = refused(["request.query.ids Request query parameter ids must be array,null"]);
  assert.match(prismCannotJudge(queryTool, nullable, facts, { ids: [1] })!, /exactly array/);
  assert.is(prismCannotJudge(queryTool, nullable, facts, { ids: "1" }), undefined, "a string sent is ours");
  assert.is(
    prismCannotJudge(queryTool, refused(["request.query.ids Request query parameter ids must be array"]), facts, {
      ids: [1],
    }),
    undefined,
    "a plain array Prism does split",
  );
  const both = {
    ...tool("/and"),
    http: { ...tool("/and").http, security: [{ basic: [], oauth: ["write"] }] },
  } as unknown as ToolPlan;
  const schemes = [
    { key: "basic", type: "http", scheme: "basic", env: {} },
    { key: "oauth", type: "oauth2", env: {} },
    { key: "key", type: "apiKey", in: "header", name: "X-Key", env: {} },
  ] as SecuritySchemeDefinition[];
  assert.match(
    prismCannotJudge(both, refused(["request Invalid security scheme used"]), { discriminated: false, schemes })!,
    /two credentials/,
  );
  const keyAndBasic = { ...both, http: { ...both.http, security: [{ basic: [], key: [] }] } } as unknown as ToolPlan;
  assert.is(
    prismCannotJudge(keyAndBasic, refused(["request Invalid security scheme used"]), { discriminated: false, schemes }),
    undefined,
    "a header key and basic fit one request: ours",
  );
  // Our own mistakes stay ours.
  assert.is(
    prismCannotJudge(
      tool("/videos/{videoId}", ["videoId"]),
      refused(["Request path must have required property 'videoid'"]),
    ),
    undefined,
  );
  assert.is(
    prismCannotJudge(tool("/x"), refused(["request.body Request body must be object"], "application/json")),
    undefined,
  );
});

test("issue 57: nullable and union arrays in query and header parameters, unstyled form objects, empty forms", () => {
  const facts = { discriminated: false };
  const params = {
    ...tool("/x"),
    http: {
      ...tool("/x").http,
      parameters: [
        { argument: "ids", name: "ids", in: "query", style: "form", explode: false, required: true },
        { argument: "X-Vals", name: "X-Vals", in: "header", style: "simple", explode: false, required: false },
      ],
    },
  } as unknown as ToolPlan;
  // A header array of [array, null]: Prism reads the comma list as one string.
  const header = refused(["request.header.x-vals Request header parameter x-vals must be array,null"]);
  assert.match(prismCannotJudge(params, header, facts, { "X-Vals": [1, 2] })!, /exactly array/);
  assert.is(prismCannotJudge(params, header, facts, { "X-Vals": "1" }), undefined, "a string sent is ours");
  // A oneOf/anyOf of an array and null: three problems on the one parameter.
  const union = (where: string, name: string, keyword: string) =>
    refused([
      `request.${where}.${name} Request ${where} parameter ${name} must be array`,
      `request.${where}.${name} Request ${where} parameter ${name} must be null`,
      `request.${where}.${name} Request ${where} parameter ${name} must match ${keyword === "oneOf" ? "exactly one schema" : "a schema"} in ${keyword}`,
    ]);
  assert.match(prismCannotJudge(params, union("query", "ids", "oneOf"), facts, { ids: ["a", "b"] })!, /exactly array/);
  assert.match(
    prismCannotJudge(params, union("header", "x-vals", "anyOf"), facts, { "X-Vals": [1] })!,
    /exactly array/,
  );
  assert.is(prismCannotJudge(params, union("query", "ids", "oneOf"), facts, { ids: "a" }), undefined);
  assert.is(
    prismCannotJudge(params, refused(["request.query.ids Request query parameter ids must be array"]), facts, {
      ids: ["a"],
    }),
    undefined,
    "without a union, a plain array Prism does split: ours",
  );
  // Form bodies: an unstyled object field goes out exploded (its properties as keys).
  const form = "application/x-www-form-urlencoded";
  const formTool = (encoding: Record<string, { style: string }> = {}) =>
    withBody({
      kind: "properties",
      properties: { meta: "meta", tags: "tags" },
      mediaType: form,
      required: true,
      encoding,
    });
  const missingMeta = refused(["request.body Request body must have required property 'meta'"], form);
  assert.match(prismCannotJudge(formTool(), missingMeta, facts, { meta: { a: "x" } })!, /exploded/);
  assert.is(prismCannotJudge(formTool(), missingMeta, facts, {}), undefined, "an unsent object is ours");
  assert.is(prismCannotJudge(formTool(), missingMeta, facts, { meta: {} }), undefined, "an empty one too");
  assert.is(
    prismCannotJudge(formTool({ meta: { style: "deepObject" } }), missingMeta, facts, { meta: { a: "x" } }),
    undefined,
    "with a style Prism reads the object: ours",
  );
  // A required form body without any field is the empty string, which Prism takes for no body.
  const noBody = refused(["Body parameter is required"], form);
  assert.match(prismCannotJudge(formTool(), noBody, facts, {})!, /empty form/);
  assert.match(prismCannotJudge(formTool(), noBody, facts, { tags: [], meta: {} })!, /empty form/);
  assert.is(prismCannotJudge(formTool(), noBody, facts, { tags: ["a"] }), undefined, "a field sent: ours");
  assert.is(prismCannotJudge(tool("/x"), refused(["Body parameter is required"], "application/json")), undefined);
});

test("issue 57: file arguments are sampled as content, never as a {url} or {path} reference", () => {
  const fileSchema = {
    anyOf: [
      { type: "string", contentEncoding: "base64" },
      { type: "object", properties: { url: { type: "string" }, path: { type: "string" } } },
    ],
    description: "File content.",
  };
  const schema = { type: "object", properties: { file: fileSchema, name: { type: "string" } }, required: ["file"] };
  const upload = withBody({
    kind: "properties",
    properties: { file: "file", name: "name" },
    mediaType: "multipart/form-data",
    required: true,
    files: ["file"],
  });
  assert.equal(filesAsContent(schema, upload), {
    ...schema,
    properties: {
      file: { type: "string", contentEncoding: "base64", description: "File content." },
      name: { type: "string" },
    },
  });
  const whole = {
    ...tool("/x"),
    http: {
      ...tool("/x").http,
      body: { kind: "whole", argument: "body", mediaType: "application/octet-stream", required: true, binary: true },
    },
  } as unknown as ToolPlan;
  const wholeSchema = { type: "object", properties: { body: fileSchema } };
  assert.equal((filesAsContent(wholeSchema, whole) as typeof wholeSchema).properties.body, {
    type: "string",
    contentEncoding: "base64",
    description: "File content.",
  });
  assert.is(filesAsContent(schema, tool("/x")), schema, "no body: unchanged");
});

test("the server's own cursor is not sampled; an API token parameter used as cursor is", () => {
  const schema = {
    type: "object",
    properties: { cursor: { type: "string" }, q: { type: "string" } },
    required: ["cursor"],
  };
  const paged = {
    ...tool("/x"),
    http: {
      ...tool("/x").http,
      pagination: { style: "cursor", cursorArgument: "cursor", targetArgument: "pageToken" },
    },
  } as unknown as ToolPlan;
  assert.equal(withoutServerCursor(schema, paged), {
    type: "object",
    properties: { q: { type: "string" } },
    required: [],
  });
  const own = {
    ...paged,
    http: { ...paged.http, pagination: { style: "cursor", cursorArgument: "pageToken", targetArgument: "pageToken" } },
  } as unknown as ToolPlan;
  assert.is(withoutServerCursor(schema, own), schema);
});

test("a _fields argument whose paths are not enumerated is not sampled; an enumerated one is", () => {
  const fieldsTool = (fieldsArgument: string) =>
    ({ ...tool("/x"), http: { ...tool("/x").http, response: { accept: [], fieldsArgument } } }) as unknown as ToolPlan;
  const schema = (items: object) => ({
    type: "object",
    properties: { q: { type: "string" }, _fields: { type: "array", items } },
  });
  assert.equal(withoutServerCursor(schema({ type: "string" }), fieldsTool("_fields")), {
    type: "object",
    properties: { q: { type: "string" } },
  });
  const listed = schema({ type: "string", enum: ["id", "name"] });
  assert.is(withoutServerCursor(listed, fieldsTool("_fields")), listed);
  assert.is(withoutServerCursor(listed, tool("/x")), listed);
});

test("sampling is seeded: same seed, same tools and arguments; the sample matches the schema", async () => {
  const names = Array.from({ length: 30 }, (_, i) => `tool${i}`);
  assert.equal(pickTools(names, 5, "s"), pickTools(names, 5, "s"));
  assert.is(pickTools(names, 5, "s").length, 5);
  assert.equal(pickTools(names, "all", "s"), [...names].sort());
  const schema = {
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      sku: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
      n: { type: "integer", minimum: 2, maximum: 9 },
    },
    required: ["id", "sku", "n"],
  };
  const a = await sampleArguments(schema, "seed");
  const b = await sampleArguments(schema, "seed");
  assert.ok(a.ok, JSON.stringify(a));
  assert.equal(a, b);
  if (a.ok) {
    assert.match(String(a.args.id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(String(a.args.sku), /^[A-Z]{3}-\d{4}$/);
  }
  const unsampleable = await sampleArguments(
    { type: "object", properties: { x: { type: "string", pattern: "^(?<!a)b$" } }, required: ["x"] },
    "seed",
  );
  assert.not.ok(unsampleable.ok);
});

test("samples are drawn in a capped worker: the same values as in-thread, and a crash is a miss, not the runner's end", async () => {
  const schema = {
    type: "object",
    properties: { n: { type: "integer", minimum: 2, maximum: 9 }, s: { type: "string", minLength: 3 } },
    required: ["n", "s"],
  };
  assert.equal(await sampleInWorker(schema, "seed"), await sampleArguments(schema, "seed"));
  // A draw that overruns its time (oas-examples schema-circular.yaml took minutes, then the heap)
  // ends its worker and is a miss. 3,000 patterned strings take about 2 s here: 100 times the budget.
  const properties = Object.fromEntries(
    Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: "string", pattern: "^[a-z]{8}-[0-9]{4}$" }]),
  );
  const overrun = await sampleInWorker({ type: "object", properties, required: Object.keys(properties) }, "seed", 20);
  assert.equal(overrun, { ok: false, problems: ["faker took more than 20 ms"] });
  // The next draw gets a fresh worker.
  assert.ok((await sampleInWorker(schema, "seed")).ok);
  await stopSampler();
});

test("dummy credentials fill what .env.example names: tokens, basic, client credentials, certificate files", () => {
  const schemes: SecuritySchemeDefinition[] = [
    { key: "bearer", type: "http", scheme: "bearer", env: { token: "API_TOKEN" } },
    { key: "mtls", type: "mutualTLS", env: { cert: "API_MTLS_CERT", key: "API_MTLS_KEY" } },
    { key: "unnamed", type: "http", scheme: "basic", env: { username: "API_USER", password: "API_PASS" } },
  ];
  const example = "API_TOKEN=\n# API_MTLS_CERT=\nAPI_MTLS_KEY=\n";
  assert.equal(dummyCredentials(example, schemes), { API_TOKEN: "fidelity-token" });
  assert.equal(dummyCredentials(example, schemes, { cert: "/tmp/c.crt", key: "/tmp/c.key" }), {
    API_TOKEN: "fidelity-token",
    API_MTLS_CERT: "/tmp/c.crt",
    API_MTLS_KEY: "/tmp/c.key",
  });
});

test("a deepObject form property the request does not send, which Prism reads as {}, is a Prism limitation; one it sends is not", () => {
  const form = {
    ...tool("/v1/treasury/outbound_payments"),
    http: {
      method: "post",
      path: "/v1/treasury/outbound_payments",
      parameters: [],
      body: {
        kind: "properties",
        properties: { amount: "amount", end_user_details: "end_user_details" },
        mediaType: "application/x-www-form-urlencoded",
        required: true,
      },
      response: { accept: [] },
    },
  } as unknown as ToolPlan;
  const problems = [
    "request.body.end_user_details Request body property end_user_details must have required property 'present'",
  ];
  assert.match(
    prismCannotJudge(form, refused(problems, "application/x-www-form-urlencoded"), undefined, { amount: 1 }) ?? "",
    /does not send as an empty object/,
  );
  assert.ok(
    prismCannotJudge(form, refused(problems, "multipart/form-data; boundary=x"), undefined, { amount: 1 }),
    "multipart too",
  );
  assert.is(
    prismCannotJudge(form, refused(problems, "application/x-www-form-urlencoded"), undefined, {
      amount: 1,
      end_user_details: {},
    }),
    undefined,
  );
  assert.is(prismCannotJudge(form, refused(problems, "application/json"), undefined, { amount: 1 }), undefined);
  const nested = [
    "request.body.end_user_details.dob Request body property end_user_details.dob must have required property 'day'",
  ];
  assert.ok(
    prismCannotJudge(form, refused(nested, "application/x-www-form-urlencoded"), undefined, {
      end_user_details: { present: true },
    }),
    "nested, not sent",
  );
  assert.is(
    prismCannotJudge(form, refused(nested, "application/x-www-form-urlencoded"), undefined, {
      end_user_details: { dob: {} },
    }),
    undefined,
    "nested, sent empty",
  );
});

test("a deepObject query parameter the request does not send, read by Prism as {}, is a Prism limitation (through array items too)", () => {
  const get = {
    ...tool("/v1/invoices/upcoming"),
    http: {
      method: "get",
      path: "/v1/invoices/upcoming",
      parameters: [
        {
          argument: "automatic_tax",
          name: "automatic_tax",
          in: "query",
          style: "deepObject",
          explode: true,
          required: false,
        },
        {
          argument: "items",
          name: "subscription_items",
          in: "query",
          style: "deepObject",
          explode: true,
          required: false,
        },
      ],
      response: { accept: [] },
    },
  } as unknown as ToolPlan;
  const top = [
    "request.query.automatic_tax Request query parameter automatic_tax must have required property 'enabled'",
  ];
  assert.ok(prismCannotJudge(get, refused(top), undefined, {}));
  assert.is(prismCannotJudge(get, refused(top), undefined, { automatic_tax: { enabled: true } }), undefined);
  const deep = [
    "request.query.subscription_items.0.price_data Request query parameter subscription_items.0.price_data must have required property 'currency'",
  ];
  assert.ok(prismCannotJudge(get, refused(deep), undefined, { items: [{ price: "p" }] }));
  assert.is(
    prismCannotJudge(get, refused(deep), undefined, { items: [{ price_data: { currency: "usd" } }] }),
    undefined,
  );
});

test("an array of objects in a deepObject form field, which Prism reads only as JSON, is a Prism limitation", () => {
  const form = {
    ...tool("/v1/tax/calculations"),
    http: {
      method: "post",
      path: "/v1/tax/calculations",
      parameters: [],
      body: {
        kind: "properties",
        properties: { line_items: "line_items", tags: "tags" },
        mediaType: "application/x-www-form-urlencoded",
        required: true,
        encoding: { line_items: { style: "deepObject", explode: true }, tags: { style: "deepObject", explode: true } },
      },
      response: { accept: [] },
    },
  } as unknown as ToolPlan;
  const problems = [
    "request Cannot deserialize JSON object array in form data request body. Make sure the array is in JSON",
  ];
  assert.match(
    prismCannotJudge(form, refused(problems, "application/x-www-form-urlencoded"), undefined, {
      line_items: [{ amount: 1 }],
    }) ?? "",
    /only as JSON/,
  );
  assert.is(
    prismCannotJudge(form, refused(problems, "application/x-www-form-urlencoded"), undefined, { tags: ["a"] }),
    undefined,
    "no array of objects sent",
  );
});

test.run();
