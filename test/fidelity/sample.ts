/**
 * Seeded sampling for the fidelity runner: which tools of a spec are called, and with which
 * arguments. Arguments come from json-schema-faker (pinned) driven by a seeded PRNG, and are
 * checked with ajv against the tool's `inputSchema`: only a sample the schema accepts is a fair
 * test of the server (a faker miss is reported apart, never blamed on the server).
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
// The fidelity runner was written against json-schema-faker 0.5 (its options API); the generator uses 0.6.
import { JSONSchemaFaker } from "json-schema-faker-05";
import type { Ajv2020 as AjvType } from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);

/** A deterministic PRNG (mulberry32) from a 32-bit seed: numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from any strings (e.g. the run's seed, the spec and the tool name). */
export function seedOf(...parts: string[]): number {
  return createHash("sha256").update(parts.join("\u0000")).digest().readUInt32LE(0);
}

/** The tools to call: all of them, or `count` picked by a seeded shuffle of the sorted names. */
export function pickTools(names: string[], count: number | "all", seed: string): string[] {
  const sorted = [...names].sort();
  if (count === "all" || count >= sorted.length) return sorted;
  const random = seededRandom(seedOf(seed, "pick"));
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j]!, sorted[i]!];
  }
  return sorted.slice(0, count).sort();
}

let ajv: AjvType | undefined;

/** ajv for JSON Schema 2020-12 with formats, configured like the generated servers' validator. */
function validator(): AjvType {
  if (!ajv) {
    const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    const addFormats = (require("ajv-formats") as { default: (ajv: AjvType) => void }).default;
    ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, logger: false });
    addFormats(ajv);
  }
  return ajv;
}

/** Problems of `value` against `schema` (empty when it is valid). */
export function schemaProblems(schema: object, value: unknown): string[] {
  const validate = validator().compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim());
}

// The PRNG of the draw in progress, shared with the format generators below.
let current: () => number = seededRandom(0);

function hex(length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += Math.floor(current() * 16).toString(16);
  return text;
}

/**
 * Formats ajv checks (ajv-formats) that json-schema-faker 0.5 does not generate; each draws from
 * the seeded PRNG so samples repeat.
 */
const EXTRA_FORMATS: Record<string, () => string> = {
  uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(current() * 4)]}${hex(3)}-${hex(12)}`,
  byte: () => Buffer.from(hex(6), "hex").toString("base64"),
  duration: () => `P${1 + Math.floor(current() * 9)}DT${Math.floor(current() * 24)}H`,
  "uri-template": () => `https://example.com/${hex(4)}/{id}`,
  "json-pointer": () => `/${hex(4)}/${Math.floor(current() * 9)}`,
  "relative-json-pointer": () => `${Math.floor(current() * 3)}/${hex(3)}`,
  regex: () => `^[a-z]{${1 + Math.floor(current() * 5)}}$`,
  iri: () => `https://example.com/${hex(6)}`,
  "iri-reference": () => `/${hex(6)}`,
  "uri-reference": () => `/${hex(6)}`,
  url: () => `https://example.com/${hex(6)}`,
};
for (const [name, make] of Object.entries(EXTRA_FORMATS)) JSONSchemaFaker.format(name, make);

/** A sampled argument set, or why none could be made. */
export type Sample = { ok: true; args: Record<string, unknown>; attempts: number } | { ok: false; problems: string[] };

/**
 * Samples arguments for one tool: up to `attempts` faker draws (each with its own seed derived
 * from `seed`), the first one `inputSchema` accepts wins.
 */
export async function sampleArguments(inputSchema: object, seed: string, attempts = 5): Promise<Sample> {
  let problems: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    current = seededRandom(seedOf(seed, String(attempt)));
    JSONSchemaFaker.option({
      random: current,
      alwaysFakeOptionals: false,
      optionalsProbability: 0.5,
      fillProperties: false,
      useDefaultValue: false,
      useExamplesValue: false,
      failOnInvalidTypes: false,
      failOnInvalidFormat: false,
      ignoreMissingRefs: true,
      maxItems: 3,
      maxLength: 40,
      // Recursive schemas (a header array of circular objects) grow as maxItems^depth: two levels
      // keep a sample under the 16 KB of headers HTTP servers take (deeper gave 431 on oas-examples).
      refDepthMax: 2,
      renderTitle: false,
      renderDescription: false,
      renderComment: false,
    });
    let args: unknown;
    try {
      // A copy: the faker may annotate the schema it walks.
      args = JSONSchemaFaker.generate(structuredClone(inputSchema) as never);
    } catch (error) {
      problems = [`faker failed: ${(error as Error).message.slice(0, 200)}`];
      continue;
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      problems = ["faker produced a non-object"];
      continue;
    }
    problems = schemaProblems(inputSchema, args);
    if (problems.length === 0) return { ok: true, args: args as Record<string, unknown>, attempts: attempt + 1 };
  }
  return { ok: false, problems };
}
