/**
 * Seeded mutations of the hostile specs (specs/hostile/) run through the generator in process
 * (`cli/index.ts` run(), the command's own entry): the exit code is never 3 ("a bug in mcp-gen")
 * and the output folder is either complete (manifest, package.json, tools) or absent, with no
 * staging folder left behind.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { run } from "../../cli/index.js";
import { repoRoot } from "../support/e2e.js";
import { Prng } from "./prng.js";

/** Lines a mutation may insert (indented like the line they land next to). */
const SNIPPETS = [
  '$ref: "/etc/hostname"',
  '$ref: "../../../../../etc/hostname"',
  '$ref: "file:///proc/self/environ"',
  '$ref: "http://127.0.0.1:9/remote.yaml"',
  '$ref: "#/components/schemas/Missing"',
  '$ref: "#/"',
  '$ref: "parts/thing.yaml#/nope"',
  '$ref: "parts%2F..%2F..%2Fx.yaml"',
  "x: &a [1, 2, 3]",
  "y: *a",
  "z: *undefined_alias",
  "<<: *a",
  "__proto__: {type: string}",
  "constructor: {type: integer}",
  'title: "a\\nRUN echo owned\\n# syntax=evil"',
  'operationId: "../../escape"',
  'operationId: "constructor"',
  'name: "\\u2028KEY=value"',
  'type: [object, "null"]',
  "type: file",
  "enum: []",
  "required: [__proto__]",
  'pattern: "(?<!x)++"',
  'format: "\\n"',
  "in: body",
  "style: deepObject",
  "- !!binary aGVsbG8=",
  'default: !!js/function "function () {}"',
  "? [complex, key]\n  : value",
  "items: {items: {items: {items: {}}}}",
  "{",
  "]",
  "\t",
  "openapi: 2.0",
  'swagger: "2.0"',
  "paths: null",
  "responses: {}",
];
const TOKENS = [
  "..",
  "{x}",
  "__proto__",
  "constructor",
  "",
  '""',
  "null",
  "~",
  "-1",
  "1e400",
  "'",
  '"',
  "&",
  "*",
  "%",
  "@",
  "`",
  "|",
  ">",
  "!!str",
  "\\u0000",
];

/** One mutation of `text`: lines removed, repeated, swapped, inserted, cut, or characters flipped. */
export function mutate(r: Prng, text: string): string {
  const lines = text.split("\n");
  const at = r.int(0, Math.max(0, lines.length - 1));
  const indent = /^\s*/.exec(lines[at] ?? "")![0];
  switch (r.int(0, 7)) {
    case 0:
      lines.splice(at, 1);
      break;
    case 1:
      lines.splice(at, 0, lines[at] ?? "");
      break;
    case 2: {
      const other = r.int(0, lines.length - 1);
      [lines[at], lines[other]] = [lines[other]!, lines[at]!];
      break;
    }
    case 3:
    case 4:
      lines.splice(
        at + 1,
        0,
        ...r
          .pick(SNIPPETS)
          .split("\n")
          .map((line) => indent + line),
      );
      break;
    case 5:
      return text.slice(0, r.int(0, text.length));
    case 6: {
      const chars = [...text];
      for (let i = r.int(1, 5); i > 0; i--)
        chars[r.int(0, chars.length - 1)] = r.pick([...":-[]{}#&*!|>'\"%@`\t ", "\u0000", "\u00e9", "\ufeff"]);
      return chars.join("");
    }
    default: {
      // A scalar after `: ` replaced by a token.
      const line = lines[at] ?? "";
      lines[at] = line.includes(": ") ? line.replace(/: .*$/, `: ${r.pick(TOKENS)}`) : `${line} ${r.pick(TOKENS)}`;
    }
  }
  return lines.join("\n");
}

/** The hostile specs to start from (files under `parts/` are referenced, not run). */
export function hostileSpecFiles(): string[] {
  const dir = join(repoRoot, "specs/hostile");
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name === "parts"
          ? []
          : walk(join(d, e.name))
        : /\.(ya?ml|json)$/.test(e.name)
          ? [join(d, e.name)]
          : [],
    );
  return walk(dir).sort();
}

/** What one mutated spec did. */
export interface MutationOutcome {
  name: string;
  code: number | "threw";
  problem?: string;
}

async function quietly<T>(body: () => Promise<T>): Promise<{ value?: T; error?: unknown; stdout: string }> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  let stdout = "";
  process.stdout.write = ((chunk: string | Uint8Array) => (
    (stdout += String(chunk)),
    true
  )) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return { value: await body(), stdout };
  } catch (error) {
    return { error, stdout };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

/**
 * Runs `count` mutations (seeded) of the hostile specs through the generator; returns one outcome
 * per mutation, with `problem` set when a rule was broken.
 */
export async function fuzzSpecs(count: number, seed: number): Promise<MutationOutcome[]> {
  const r = new Prng(seed);
  const sources = hostileSpecFiles();
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-fuzz-specs-"));
  const outcomes: MutationOutcome[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const source = r.pick(sources);
      const name = `${i}-${relative(join(repoRoot, "specs/hostile"), source).replace(/\W+/g, "-")}`;
      // Each case gets a fresh copy of the folder, so relative $refs and parts/ still resolve.
      const caseDir = join(work, `case-${i}`);
      cpSync(join(repoRoot, "specs/hostile"), join(caseDir, "specs"), { recursive: true });
      const spec = join(caseDir, "specs", relative(join(repoRoot, "specs/hostile"), source));
      let text = readFileSync(source, "utf8");
      for (let n = r.int(1, 3); n > 0; n--) text = mutate(r, text);
      writeFileSync(spec, text);
      const outs = join(caseDir, "outs");
      mkdirSync(outs);
      const out = join(outs, "server");
      const result = await quietly(() => run([spec, "-o", out, "--json"]));
      const outcome: MutationOutcome = { name, code: result.error !== undefined ? "threw" : result.value! };
      const left = readdirSync(outs);
      if (outcome.code === "threw")
        outcome.problem = `threw ${result.error instanceof Error ? result.error.stack : String(result.error)}`;
      else if (outcome.code === 3) outcome.problem = `exit 3: ${result.stdout.slice(0, 600)}`;
      else if (outcome.code === 0) {
        const complete = [".mcp-gen/manifest.json", "package.json", "data/tools.json", "src/index.ts"].every((file) =>
          existsSync(join(out, file)),
        );
        if (!complete || left.length !== 1)
          outcome.problem = `exit 0 but the output is partial or extra folders are left: ${left.join(", ")}`;
      } else if (left.length !== 0) outcome.problem = `exit ${outcome.code} left ${left.join(", ")} behind`;
      if (outcome.problem) writeFileSync(join(work, `failed-${name}.txt`), text);
      else rmSync(caseDir, { recursive: true, force: true });
      outcomes.push(outcome);
    }
  } finally {
    if (!outcomes.some((o) => o.problem)) rmSync(work, { recursive: true, force: true });
  }
  return outcomes;
}
