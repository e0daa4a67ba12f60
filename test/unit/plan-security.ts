import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { planProject } from "../../generator/pipeline/plan/plan-project.js";
import {
  credentialParameters,
  envName,
  parseAuthOverride,
  planSecurity,
} from "../../generator/pipeline/plan/credentials.js";
import { api, operation, parameter } from "../support/factories.js";

test("envName makes UPPER_SNAKE names with an optional prefix", () => {
  assert.is(envName("petstore_auth"), "PETSTORE_AUTH");
  assert.is(envName("bearerAuth"), "BEARER_AUTH");
  assert.is(envName("api-key v2"), "API_KEY_V2");
  assert.is(envName("bearerAuth", "PETS_"), "PETS_BEARER_AUTH");
  assert.is(envName("2fa"), "_2FA");
});

test("--auth values are checked", () => {
  assert.is(parseAuthOverride("bearer"), "bearer");
  assert.is(parseAuthOverride("header:X-API-Key"), "header:X-API-Key");
  assert.is(parseAuthOverride("header:bad name"), undefined);
  assert.is(parseAuthOverride("digest"), undefined);
});

test("a spec without security gets the --auth scheme as an optional credential on every operation", () => {
  const ops = [operation({ pointer: "#/a" }), operation({ pointer: "#/b", security: [] })];
  const plan = planSecurity(api(ops), { auth: "bearer", envPrefix: "GH_" }, (op) => op.pointer, new DiagnosticBag());
  assert.equal(plan.requirements.get("#/a"), [{ api_token: [] }, {}]);
  assert.equal(
    plan.requirements.get("#/b"),
    [{ api_token: [] }, {}],
    "an empty list is 'no security', which --auth fills",
  );
  assert.equal(plan.schemes, [{ key: "api_token", type: "http", scheme: "bearer", env: { token: "GH_API_TOKEN" } }]);
  assert.equal(
    plan.env.map((v) => v.name),
    ["GH_API_TOKEN"],
  );
  assert.match(plan.env[0]!.description, /Used by: #\/a, #\/b\./);
});

test("requirements naming undefined schemes are dropped with a warning; unused schemes are not planned", () => {
  const schemes = [
    {
      pointer: "#/components/securitySchemes/k",
      key: "k",
      type: "apiKey" as const,
      in: "header" as const,
      name: "X-K",
    },
    { pointer: "#/components/securitySchemes/unused", key: "unused", type: "http" as const, scheme: "basic" },
  ];
  const bag = new DiagnosticBag();
  const ir = api([operation({ pointer: "#/op", security: [{ nope: [] }, { k: [] }] })], new Map(), schemes);
  const plan = planSecurity(ir, {}, () => "op", bag);
  assert.equal(plan.requirements.get("#/op"), [{ k: [] }]);
  assert.equal(
    plan.schemes.map((s) => s.key),
    ["k"],
  );
  assert.equal(
    bag.items.map((d) => [d.code, d.pointer]),
    [["MG113", "#/op/security"]],
  );
});

test("an undefined scheme is left out of its alternative; the defined ones of it are still required", () => {
  const schemes = [
    {
      pointer: "#/components/securitySchemes/k",
      key: "k",
      type: "apiKey" as const,
      in: "header" as const,
      name: "X-K",
    },
  ];
  const bag = new DiagnosticBag();
  const ir = api([operation({ pointer: "#/op", security: [{ k: [], secret: [] }] })], new Map(), schemes);
  assert.equal(planSecurity(ir, {}, () => "op", bag).requirements.get("#/op"), [{ k: [] }]);
  assert.match(bag.items[0]!.message, /undefined scheme\(s\) secret; the alternative is applied without it/);
});

test("a parameter an apiKey credential fills in every alternative is no argument (MG104)", () => {
  const schemes = [
    { pointer: "#/s/key", key: "key", type: "apiKey" as const, in: "query" as const, name: "key" },
    { pointer: "#/s/h", key: "h", type: "apiKey" as const, in: "header" as const, name: "X-Key" },
    { pointer: "#/s/b", key: "b", type: "http" as const, scheme: "bearer" },
  ];
  const definitions = planSecurity(api([], new Map(), schemes), {}, () => "", new DiagnosticBag()).schemes;
  assert.equal([...credentialParameters([{ key: [] }, { key: [], h: [] }], schemes as never)], [["query:key", "key"]]);
  assert.equal(
    [...credentialParameters([{ key: [] }, { b: [] }], schemes as never)],
    [],
    "not when an alternative lacks it",
  );
  assert.equal([...credentialParameters([{ h: [] }], schemes as never)], [["header:x-key", "h"]]);
  assert.equal(definitions, []);
  const op = (security: Array<Record<string, string[]>>) =>
    operation({
      pointer: `#/op${security.length}`,
      path: `/p${security.length}`,
      security,
      parameters: [
        parameter({ name: "key", in: "query", required: true }),
        parameter({ name: "x-key", in: "header", required: true }),
        parameter({ name: "q", in: "query" }),
      ],
    });
  const bag = new DiagnosticBag();
  const plan = planProject(api([op([{ key: [], h: [] }]), op([{ key: [] }, { b: [] }])], new Map(), schemes), {}, bag);
  assert.equal(Object.keys(plan.tools[0]!.inputSchema.properties!), ["q"]);
  assert.equal(plan.tools[0]!.inputSchema.required, undefined);
  assert.equal(Object.keys(plan.tools[1]!.inputSchema.properties!), ["key", "q", "x-key"]);
  assert.equal(
    bag.items.filter((d) => d.code === "MG104").map((d) => d.message.slice(0, 40)),
    ['The query parameter "key" is what securi', 'The header parameter "x-key" is what sec'],
  );
});

test.run();
