/**
 * One spec through the fidelity check: generate, compile, start a JSON-logging Prism mock of the
 * same spec, start the generated server against it (dummy credentials from `.env.example`), call
 * a seeded sample of tools with sampled arguments through the official SDK client over stdio,
 * and classify every call from Prism's log. Never throws: failures become `error` on the row.
 */
import { parse as parseYaml } from "yaml";
import { pruneSpec, splitComponents } from "./prune-spec.js";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { GenerationError } from "../../generator/shared/diagnostics.js";
import { generate } from "../../generator/pipeline/generate.js";
import type { ToolPlan } from "../../generator/pipeline/plan/plan-types.js";
import type { SecuritySchemeDefinition } from "../../runtime/src/api/types.js";
import { parseRecords, prismRequests, type PrismRequestLog } from "./prism-log.js";
import { startJsonPrism, type JsonPrism } from "./prism-process.js";
import { compileProject } from "../support/e2e.js";
import { pickTools } from "./sample.js";
import { sampleInWorker } from "./sample-worker.js";
import { fileArguments } from "../../runtime/src/features/uploads/file-arguments.js";

/** What happened to one sampled call. */
export type CallClass =
  /** Every upstream request passed Prism's validation and was answered from the spec. */
  | "accepted"
  /** Prism refused the request the server built (violation, security, 406, 415, unknown route): our bug. */
  | "request-violation"
  /** The server refused arguments that its own inputSchema accepts: our bug. */
  | "own-refusal"
  /** The call failed without any upstream request for another reason (our bug until explained). */
  | "no-request"
  /** Prism could not judge or answer (its mock response failing the spec, serialisation, fragment paths). */
  | "prism-limitation"
  /** No argument set the inputSchema accepts could be sampled (faker limitation); not called. */
  | "sample-invalid";

/** The classes that count as our bugs. */
export const BUG_CLASSES: CallClass[] = ["request-violation", "own-refusal", "no-request"];

/** One call in the report. */
export interface CallOutcome {
  tool: string;
  operation: string;
  class: CallClass;
  /** Violation texts, the refusal text or the error. */
  detail: string[];
  args?: Record<string, unknown>;
  requests: Array<Pick<PrismRequestLog, "method" | "path" | "query" | "contentType" | "accept" | "verdict">>;
}

/** One spec in the report. */
export interface SpecFidelity {
  id: string;
  tools: number;
  sampled: number;
  counts: Record<CallClass, number>;
  calls: CallOutcome[];
  /** Why the spec could not be run at all (generation, compile, Prism start). */
  error?: string;
  ms: number;
}

/** How to run one spec. */
export interface FidelityOptions {
  id: string;
  spec: string;
  root: string;
  workDir: string;
  sample: number | "all";
  seed: string;
  keep?: boolean;
  /** Per-call timeout (ms). */
  callTimeoutMs?: number;
  /** How long Prism may take to load the spec (ms). */
  prismTimeoutMs?: number;
  /**
   * Prism judges a copy of the spec with only the sampled operations, without response schemas,
   * its components in a side file (see prune-spec.ts): for specs Prism cannot load whole (Stripe).
   * Requests are judged as on the whole spec; a failing mock response is not a verdict anyway.
   */
  prismSubset?: boolean;
}

/** An empty count per class. */
export function emptyCounts(): Record<CallClass, number> {
  return {
    accepted: 0,
    "request-violation": 0,
    "own-refusal": 0,
    "no-request": 0,
    "prism-limitation": 0,
    "sample-invalid": 0,
  };
}

/** Runs one spec; see the module comment. */
export async function runFidelity(options: FidelityOptions): Promise<SpecFidelity> {
  const started = Date.now();
  const row: SpecFidelity = { id: options.id, tools: 0, sampled: 0, counts: emptyCounts(), calls: [], ms: 0 };
  const out = join(options.workDir, options.id.replace(/[^A-Za-z0-9_.-]+/g, "_"));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(options.workDir, { recursive: true });
  let prism: JsonPrism | undefined;
  let client: Client | undefined;
  try {
    let tools: ToolPlan[];
    let schemes: SecuritySchemeDefinition[];
    try {
      const result = await generate({ spec: options.spec, outDir: out, force: true });
      tools = result.plan.tools;
      schemes = result.plan.securitySchemes;
    } catch (error) {
      row.error =
        error instanceof GenerationError
          ? `generation refused: ${error.diagnostics.find((d) => d.severity === "error")?.message ?? error.message}`
          : `generator crashed: ${(error as Error).message}`;
      return row;
    }
    row.tools = tools.length;
    if (tools.length === 0) return row;
    try {
      await compileProject(out, { timeoutMs: 600_000 });
    } catch (error) {
      row.error = `tsc failed: ${(error as Error).message
        .split("\n")
        .filter((l) => l.includes("error TS"))
        .slice(0, 2)
        .join(" | ")
        .slice(0, 400)}`;
      return row;
    }
    // The sample is drawn from the plan's tools (the server lists the same ones, in the same order).
    const chosen = pickTools(
      tools.map((tool) => tool.name),
      options.sample,
      `${options.seed}:${options.id}`,
    );
    const prismSpec = options.prismSubset
      ? writePrismSubset(
          options.spec,
          tools.filter((tool) => chosen.includes(tool.name)),
          join(out, "prism-spec"),
        )
      : options.spec;
    try {
      prism = await startJsonPrism(options.root, prismSpec, options.prismTimeoutMs ?? 240_000);
    } catch (error) {
      row.error = `Prism could not start: ${(error as Error).message.slice(0, 300)}`;
      return row;
    }
    // Mutual TLS: placeholder PEM files. Prism serves plain HTTP, so they are read (as a real
    // configuration would be) but no handshake uses them; without them the tool sends no request.
    const files = { cert: join(out, "fidelity-client.crt"), key: join(out, "fidelity-client.key") };
    writeFileSync(files.cert, "-----BEGIN CERTIFICATE-----\nZmlkZWxpdHk=\n-----END CERTIFICATE-----\n");
    writeFileSync(files.key, "-----BEGIN PRIVATE KEY-----\nZmlkZWxpdHk=\n-----END PRIVATE KEY-----\n");
    const env: Record<string, string> = {
      ...getDefaultEnvironment(),
      ...dummyCredentials(readFileSync(join(out, ".env.example"), "utf8"), schemes, files),
    };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(out, "dist/index.js"), "--base-url", prism.url, "--surface", "all"],
      env,
      stderr: "ignore",
    });
    client = new Client({ name: "mcp-gen-fidelity", version: "1.0.0" });
    await client.connect(transport);
    const listed = new Map<string, { inputSchema: object }>();
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: 120_000 });
      for (const tool of result.tools) listed.set(tool.name, tool as { inputSchema: object });
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const facts: SpecFacts = {
      discriminated: /["']?discriminator["']?\s*:/.test(readFileSync(options.spec, "utf8")),
      schemes,
    };
    row.sampled = chosen.length;
    // A sampled tool the server does not list means it lists other tools (a surface, a filter): a
    // row of zeros would read as "nothing to judge" and hide it.
    const unlisted = chosen.filter((name) => !listed.has(name));
    if (unlisted.length > 0)
      throw new Error(
        `the server listed ${unlisted.length === chosen.length ? "none" : `${unlisted.length}`} of the ${chosen.length} sampled tools of the plan (${listed.size} listed)`,
      );
    for (const name of chosen) {
      let outcome = await callOne(
        client,
        prism,
        name,
        byName.get(name)!,
        listed.get(name)!.inputSchema,
        `${options.seed}:${options.id}:${name}`,
        options.callTimeoutMs ?? 30_000,
        facts,
      );
      if (prism.exited()) {
        // Prism's mock crashed while handling this request (an uncaught error of its own, e.g. on
        // some XML bodies): not a verdict on the request. Restarted on the same port, so the
        // server's base URL stays right for the calls that follow.
        outcome = {
          ...outcome,
          class: "prism-limitation",
          detail: [`Prism crashed on this request: ${prism.stderrTail() || "no message"}`],
        };
        prism = await startJsonPrism(
          options.root,
          prismSpec,
          options.prismTimeoutMs ?? 240_000,
          Number(new URL(prism.url).port),
        );
      }
      row.calls.push(outcome);
      row.counts[outcome.class]++;
    }
  } catch (error) {
    row.error = `run failed: ${(error as Error).message.slice(0, 300)}`;
  } finally {
    await client?.close().catch(() => undefined);
    await prism?.stop();
    if (!options.keep) rmSync(out, { recursive: true, force: true });
    row.ms = Date.now() - started;
  }
  return row;
}

/** Calls one tool with sampled arguments and classifies the call from Prism's log. */
async function callOne(
  client: Client,
  prism: JsonPrism,
  name: string,
  tool: ToolPlan,
  inputSchema: object,
  seed: string,
  timeoutMs: number,
  facts: SpecFacts,
): Promise<CallOutcome> {
  const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
  const sample = await sampleInWorker(filesAsContent(withoutServerCursor(inputSchema, tool), tool), seed);
  if (!sample.ok) return { tool: name, operation, class: "sample-invalid", detail: sample.problems, requests: [] };
  const before = prism.requestCount();
  let text = "";
  let isError = false;
  try {
    const result = (await client.callTool({ name, arguments: sample.args }, undefined, { timeout: timeoutMs })) as {
      isError?: boolean;
      content?: Array<{ type: string; text?: string }>;
    };
    isError = result.isError === true;
    text = (result.content ?? [])
      .filter((c) => c.type === "text")
      .map((c) => c.text ?? "")
      .join("\n");
  } catch (error) {
    isError = true;
    text = `call failed: ${(error as Error).message}`;
  }
  const count = prism.requestCount();
  // The tail of the last request (violations, a late error) may still be on its way.
  await prism.settle(count);
  const requests = prismRequests(parseRecords(prism.lines())).slice(before, count);
  const summary = requests.map(({ method, path, query, contentType, accept, verdict }) => ({
    method,
    path,
    query,
    ...(contentType ? { contentType } : {}),
    ...(accept ? { accept } : {}),
    verdict,
  }));
  const base = { tool: name, operation, args: sample.args, requests: summary };
  if (requests.length === 0) {
    if (!isError) return { ...base, class: "accepted", detail: ["no upstream request needed"] };
    if (/^Invalid arguments for tool/.test(text))
      return { ...base, class: "own-refusal", detail: [text.slice(0, 600)] };
    return { ...base, class: "no-request", detail: [text.slice(0, 600)] };
  }
  // Only the first request is built from the sampled arguments alone; later ones (a redirect got
  // followed, further pages) come from the mock's placeholder data.
  const [first, ...followUps] = requests;
  if (first!.verdict === "refused") {
    const limitation = prismCannotJudge(tool, first!, facts, sample.args);
    if (limitation)
      return { ...base, class: "prism-limitation", detail: [`${limitation}: ${first!.problems.join("; ")}`] };
    return { ...base, class: "request-violation", detail: first!.problems };
  }
  const refusedLater = followUps.filter((r) => r.verdict === "refused");
  if (refusedLater.length > 0)
    return {
      ...base,
      class: "prism-limitation",
      detail: refusedLater.map(
        (r) => `follow-up request from mock data (${r.method} ${r.path}): ${r.problems.join("; ")}`,
      ),
    };
  const limited = requests.filter((r) => r.verdict === "prism-limitation");
  if (limited.length > 0)
    return {
      ...base,
      class: "prism-limitation",
      detail: limited.flatMap((r) =>
        r.limitations.length > 0 ? r.limitations : ["Prism logged no validation result"],
      ),
    };
  return { ...base, class: "accepted", detail: [] };
}

/** Request bodies Prism's validator reads; others (XML, …) it validates as a plain string. */
const PRISM_BODY_TYPES = /^(application\/([^;]*\+)?json|application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * Why Prism's refusal says nothing about our request, or undefined when it does: a path key with a
 * fragment or query (`/analyze#overload=stream`) is routed by Prism to another operation, and a
 * body of a media type Prism cannot parse fails any object schema.
 */
/** What the runner knows of the spec that classification needs. */
export interface SpecFacts {
  /** The spec uses `discriminator` somewhere. */
  discriminated: boolean;
  /** The plan's security schemes. */
  schemes?: SecuritySchemeDefinition[];
}

/** Whether a scheme puts its credential in the Authorization header. */
function usesAuthorization(scheme: SecuritySchemeDefinition | undefined): boolean {
  if (!scheme) return false;
  if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect") return true;
  return scheme.type === "apiKey" && scheme.in === "header" && scheme.name?.toLowerCase() === "authorization";
}

export function prismCannotJudge(
  tool: ToolPlan,
  request: PrismRequestLog,
  facts: SpecFacts = { discriminated: false },
  args: Record<string, unknown> = {},
): string | undefined {
  if (/[#?]/.test(tool.http.path)) return "path key with a fragment or query (Prism routes by path only)";
  // A path parameter our operation does not have: Prism matched another operation's template
  // (it confuses `/v1/{name}:verb` keys that differ only after the parameter).
  const ours = new Set(tool.http.parameters.filter((p) => p.in === "path").map((p) => p.name.toLowerCase()));
  const foreign = request.problems
    .map((p) => /Request path must have required property '([^']+)'/.exec(p)?.[1])
    .filter((name): name is string => name !== undefined && !ours.has(name.toLowerCase()));
  if (foreign.length > 0)
    return `Prism routed the request to another operation (its path has {${foreign.join("}, {")}})`;
  // A Swagger 2.0 body parameter without any `consumes`: Prism then allows no request body at all,
  // although the spec requires one (the operation has a body: we send it, as we must).
  if (
    tool.http.body &&
    request.problems.length > 0 &&
    request.problems.every((p) => /No supported content types, but request included a non-empty body/.test(p))
  ) {
    return "Prism allows no body where the spec declares one without a media type (Swagger 2.0, no consumes)";
  }
  // Every alternative asks for two credentials in the one Authorization header (an AND of basic
  // and OAuth, say): no request can carry both, whatever the server does.
  const byKey = new Map((facts.schemes ?? []).map((scheme) => [scheme.key, scheme]));
  const alternatives = tool.http.security ?? [];
  if (
    alternatives.length > 0 &&
    alternatives.every(
      (requirement) => Object.keys(requirement).filter((key) => usesAuthorization(byKey.get(key))).length > 1,
    )
  ) {
    if (request.problems.some((p) => /Invalid security scheme used/.test(p)))
      return "the spec asks for two credentials in the one Authorization header at once (no request can carry both)";
  }
  // OpenAPI: a header parameter named Authorization "SHALL be ignored" (security schemes set it), so
  // the server never sends it as an argument; Prism still requires it.
  if (
    request.problems.length > 0 &&
    request.problems.every((p) => /Request header must have required property 'authorization'/i.test(p))
  ) {
    return "Prism requires a header parameter named Authorization, which OpenAPI says is ignored";
  }
  // An array of objects in a path, query or header parameter: OpenAPI's styles (RFC 6570) define no
  // serialisation of nested values, so no request could pass; Prism reads the items as strings.
  if (
    request.problems.length > 0 &&
    request.problems.every((p) => /Request (header|query|path) parameter \S+\.\d+ must be object/.test(p))
  ) {
    return "OpenAPI defines no serialisation of an array of objects in a parameter";
  }
  // Prism checks oneOf as plain JSON Schema: branches that differ only in the discriminator's value
  // all match, so no body passes (the server pins the discriminator per branch; see docs/contributing/corpus.md).
  if (
    facts.discriminated &&
    request.problems.length > 0 &&
    request.problems.every((p) => /must match exactly one schema in oneOf/.test(p))
  ) {
    return "Prism checks oneOf without the spec's discriminator (branches that differ only in its value all match)";
  }
  const formField = formFieldLimitation(tool, request, args);
  if (formField) return formField;
  const nullableArray = nullableParameterArray(tool, request, args);
  if (nullableArray) return nullableArray;
  // Prism decodes a deepObject-encoded object that the request does not send (a form or multipart
  // body field, a query parameter; at any depth: `features[invoice_history]`) as an empty object,
  // then checks its required properties (Stripe: `end_user_details`, `features.invoice_history`,
  // the query `automatic_tax` of upcoming invoices).
  const argumentOf = new Map<string, string>(
    tool.http.parameters.filter((p) => p.in === "query").map((p) => [`query ${p.name}`, p.argument]),
  );
  const formBody =
    request.contentType !== undefined &&
    /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(request.contentType) &&
    tool.http.body?.kind === "properties";
  // properties: argument name → body property name.
  if (formBody && tool.http.body?.kind === "properties")
    for (const [argument, property] of Object.entries(tool.http.body.properties))
      argumentOf.set(`body ${property}`, argument);
  const sentAt = (where: string, path: string[]): unknown => {
    const argument = argumentOf.get(`${where} ${path[0]}`);
    let value: unknown = argument === undefined ? undefined : args[argument];
    for (const key of path.slice(1))
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    return value;
  };
  const unsent = (p: string) => {
    const found =
      /^request\.(body|query)\.(\S+) Request (?:body property|query parameter) \2 must have required property '[^']+'$/.exec(
        p,
      );
    if (!found) return false;
    const path = found[2]!.split(".");
    return argumentOf.has(`${found[1]} ${path[0]}`) && sentAt(found[1]!, path) === undefined;
  };
  if (request.problems.length > 0 && request.problems.every(unsent))
    return "Prism reads a deepObject value the request does not send as an empty object";
  if (formBody && tool.http.body?.kind === "properties") {
    // An array of objects in a deepObject form field (`line_items[0][amount]=1`, as the spec's
    // encoding says and Stripe reads): Prism only reads such arrays sent as JSON.
    const encoding = tool.http.body.encoding ?? {};
    const objectArrays = Object.entries(tool.http.body.properties).some(
      ([argument, property]) =>
        encoding[property]?.style === "deepObject" &&
        Array.isArray(args[argument]) &&
        (args[argument] as unknown[]).some((item) => item !== null && typeof item === "object"),
    );
    if (
      objectArrays &&
      request.problems.length > 0 &&
      request.problems.every((p) => /Cannot deserialize JSON object array in form data request body/.test(p))
    ) {
      return "Prism reads an array of objects in a form body only as JSON, not in the deepObject encoding the spec gives";
    }
  }
  // A violation of the body's root comes from the validator's own line, without a location.
  const bodyOnly =
    request.problems.length > 0 && request.problems.every((p) => /^(request\.body|Request body)\b/.test(p));
  if (bodyOnly && request.contentType && !PRISM_BODY_TYPES.test(request.contentType))
    return `Prism cannot parse ${request.contentType.split(";")[0]} bodies`;
  return undefined;
}

/** A logged problem without the location Prism's violation lines start with (`request.body.tags `). */
const withoutLocation = (problem: string): string => problem.replace(/^request(\.\S+)? (?=[A-Z])/, "");

/**
 * Why Prism's refusal of a form or multipart body's array or object field says nothing about our
 * request, if it does not. Prism deserialises a field only by its `encoding` entry's style:
 * - without a style it reads the field's raw text, a string ("must be array", "must be object"),
 *   whatever the request sends (a form field's default, style form/explode, spreads an object's
 *   properties and repeats an array's key; a multipart object is a JSON part);
 * - a delimited field (pipe, space, and a Swagger 2.0 csv one) the request does not send it reads
 *   as "", not as absent;
 * - in a multipart body it refuses a value holding a character URLs reserve (`,` of style form,
 *   explode false), though multipart values are not URL-encoded;
 * - in a multipart body it drops a part whose value is empty, then finds a required field missing
 *   (`labels: [""]` goes out as one empty `labels` part);
 * - in a form body an object field without a style goes out in the default one (form, exploded:
 *   `a=1&b=2`, its properties as keys), and Prism, looking only for the field's own key, finds a
 *   required object missing;
 * - a required form body without any field is the empty string (the only encoding of an empty
 *   form), which Prism reads as no body at all ("Body parameter is required").
 */
function formFieldLimitation(
  tool: ToolPlan,
  request: PrismRequestLog,
  args: Record<string, unknown>,
): string | undefined {
  const body = tool.http.body;
  const form = request.contentType?.match(/^(application\/x-www-form-urlencoded|multipart\/form-data)/i)?.[1];
  if (!form || body?.kind !== "properties" || request.problems.length === 0) return undefined;
  const multipart = form.toLowerCase() === "multipart/form-data";
  const argumentOf = new Map(Object.entries(body.properties).map(([argument, field]) => [field, argument]));
  const explained = (logged: string): boolean => {
    const problem = withoutLocation(logged);
    if (multipart && /^Reserved characters used in request body$/.test(problem)) return true;
    const missing = /^Request body must have required property '([^']+)'$/.exec(problem)?.[1];
    if (multipart && missing !== undefined && argumentOf.has(missing))
      return sentOnlyEmptyParts(args[argumentOf.get(missing)!]);
    if (!multipart && missing !== undefined && argumentOf.has(missing))
      return body.encoding?.[missing]?.style === undefined && nonEmptyObject(args[argumentOf.get(missing)!]);
    if (!multipart && problem === "Body parameter is required")
      return [...argumentOf.values()].every((argument) => sendsNothing(args[argument]));
    const field = /^Request body property (\S+) must be (array|object)$/.exec(problem)?.[1];
    if (field === undefined || !argumentOf.has(field)) return false;
    const style = body.encoding?.[field]?.style;
    if (style === undefined) return true;
    // Swagger 2.0's csv is Prism's own comma-delimited style (form without explode here).
    const delimited = /Delimited$/.test(style) || (style === "form" && body.encoding?.[field]?.explode === false);
    return delimited && args[argumentOf.get(field)!] === undefined;
  };
  return request.problems.every(explained)
    ? 'Prism reads a form or multipart field only by its encoding style (without one, as a string, and an exploded object not at all; an unsent delimited one as ""), checks multipart values for URL-reserved characters, drops empty multipart parts and takes an empty form for no body'
    : undefined;
}

/** A plain object with at least one property. */
const nonEmptyObject = (value: unknown): boolean =>
  value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0;

/** A form field value that yields no pair: absent, null, an empty array or object (RFC 6570's undefined). */
const sendsNothing = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);

/** A multipart field sent only as empty parts: `""`, or an array of them. */
const sentOnlyEmptyParts = (value: unknown): boolean =>
  value === "" || (Array.isArray(value) && value.length > 0 && value.every((item) => item === ""));

/**
 * A query or header array whose schema is not exactly `type: array` (`type: [array, "null"]`, 3.0's
 * `nullable: true`, a `oneOf`/`anyOf` of an array and null): Prism splits a query or header value
 * into items only when the type is exactly `array`, so an array sent in the parameter's style (a
 * one-item or comma-joined query value, a header's comma list) reads as a string, however it is
 * sent: "must be array,null", or under a union "must be array", "must be null" and "must match
 * … schema in oneOf/anyOf" together.
 */
function nullableParameterArray(
  tool: ToolPlan,
  request: PrismRequestLog,
  args: Record<string, unknown>,
): string | undefined {
  if (request.problems.length === 0) return undefined;
  const argumentOf = new Map(
    tool.http.parameters
      .filter((p) => p.in === "query" || p.in === "header")
      .map((p) => [`${p.in} ${p.in === "header" ? p.name.toLowerCase() : p.name}`, p.argument]),
  );
  const union = new Set<string>();
  const parsed = request.problems.map((problem) => {
    const match =
      /^Request (query|header) parameter (\S+) must (?:be ([a-z,]+)|match (?:a|exactly one) schema in (?:oneOf|anyOf))$/.exec(
        withoutLocation(problem),
      );
    if (match && match[3] === undefined) union.add(`${match[1]} ${match[2]}`);
    return match;
  });
  const explained = (match: RegExpExecArray | null): boolean => {
    if (!match) return false;
    const key = `${match[1]} ${match[2]}`;
    const argument = argumentOf.get(key);
    if (argument === undefined || !Array.isArray(args[argument])) return false;
    const types = match[3]?.split(",") ?? [];
    return (types.includes("array") && types.length > 1) || union.has(key);
  };
  return parsed.every(explained)
    ? "Prism splits a query or header array only when its type is exactly array (not [array, null] nor a union with null): a one-item or comma-joined array reads as a string"
    : undefined;
}

/**
 * The input schema without the arguments only the server can fill meaningfully, so a sampled
 * string is no fair argument: the pagination cursor it issues itself (signed, opaque: a model only
 * passes back a `nextCursor` it was given; a cursor that is the API's own token parameter stays),
 * and a `_fields` argument whose paths the schema does not enumerate (too many to list: a model
 * names paths of the documented result, and a refusal names the known ones near a wrong one).
 */
export function withoutServerCursor(inputSchema: object, tool: ToolPlan): object {
  const pagination = tool.http.pagination;
  const schema = inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const left = [
    ...(pagination && pagination.cursorArgument !== pagination.targetArgument ? [pagination.cursorArgument] : []),
    ...unlistedFields(schema.properties, tool.http.response.fieldsArgument),
  ];
  if (left.length === 0) return inputSchema;
  const properties = { ...(schema.properties ?? {}) };
  for (const name of left) delete properties[name];
  return {
    ...schema,
    properties,
    ...(schema.required ? { required: schema.required.filter((name) => !left.includes(name)) } : {}),
  };
}

/**
 * The input schema with each file argument's content branch only (base64 or a `data:` URI): its
 * `{"url"}` and `{"path"}` references name things only the environment has (a reachable URL, a
 * folder the server was started with), so a sampled reference is no fair argument either.
 */
export function filesAsContent(inputSchema: object, tool: ToolPlan): object {
  const files = tool.http.body ? fileArguments(tool.http.body) : [];
  const schema = inputSchema as { properties?: Record<string, { anyOf?: unknown[]; description?: string }> };
  const properties = { ...(schema.properties ?? {}) };
  let changed = false;
  for (const name of files) {
    const content = properties[name]?.anyOf?.find((branch) => (branch as { type?: unknown }).type === "string");
    if (content === undefined) continue;
    properties[name] = { ...(content as object), description: properties[name]!.description };
    changed = true;
  }
  return changed ? { ...schema, properties } : inputSchema;
}

/** The fields argument, when its items are any string (no `enum` of the result's paths). */
function unlistedFields(properties: Record<string, unknown> | undefined, argument: string | undefined): string[] {
  if (argument === undefined) return [];
  const items = (properties?.[argument] as { items?: { enum?: unknown } } | undefined)?.items;
  return items && items.enum === undefined ? [argument] : [];
}

/** Writes the subset Prism judges with `prismSubset` into `dir`; returns the root file's path. */
function writePrismSubset(spec: string, tools: ToolPlan[], dir: string): string {
  const document = parseYaml(readFileSync(spec, "utf8"), { maxAliasCount: -1 }) as Record<string, never>;
  const { root, components } = splitComponents(
    pruneSpec(
      document,
      tools.map((tool) => tool.pointer),
      { requestsOnly: true },
    ),
    "components.json",
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "components.json"), JSON.stringify(components));
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(root));
  return join(dir, "openapi.json");
}

/**
 * Dummy values for every credential variable named in `.env.example`; certificate and key variables
 * name the given files when there are any. Scopes stay unset.
 */
export function dummyCredentials(
  envExample: string,
  schemes: SecuritySchemeDefinition[],
  files?: { cert: string; key: string },
): Record<string, string> {
  const named = new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
  const values: Record<string, string> = {};
  const dummy: Record<string, string> = {
    token: "fidelity-token",
    username: "fidelity-user",
    password: "fidelity-pass",
    clientId: "fidelity-client",
    clientSecret: "fidelity-secret",
    ...files,
  };
  for (const scheme of schemes) {
    for (const [role, variable] of Object.entries(scheme.env)) {
      if (variable && named.has(variable) && dummy[role]) values[variable] = dummy[role]!;
    }
  }
  return values;
}
