/**
 * The project's named types against the anchor, openapi-typescript (pinned devDependency): for each
 * spec — the OpenAPI 3.x examples of specs/examples.json, GitHub and Stripe as the corpus installs
 * them (test/corpus/sources.ts) — it prints openapi-typescript's output and ours, and reports the
 * component schemas openapi-typescript names (`components["schemas"][K]`), those both have (ours a
 * named export of src/schemas.ts or its split files), and those ours lacks; exit code 1 when ours
 * lacks one. With a GitHub run it also compiles a probe in the generated project that `issue.number`
 * of `api.issues_get(…)` is a `number` (`@ts-expect-error` on a string).
 *
 *     npm run bench:types [-- --only github,petstore] [--keep <dir>]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { generate } from "../../generator/pipeline/generate.js";
import { listSource } from "../corpus/sources.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1]!.split(",") : undefined;
const keep = args.includes("--keep") ? args[args.indexOf("--keep") + 1] : undefined;

/** One spec to compare. */
interface Spec {
  name: string;
  path: string;
}

function specs(): Spec[] {
  const examples = JSON.parse(readFileSync(join(root, "specs/examples.json"), "utf8")) as Array<{
    name: string;
    spec: string;
  }>;
  const corpus = join(root, "..", "shared", "corpus");
  return [
    ...examples.map((example) => ({ name: example.name, path: join(root, example.spec) })),
    { name: "github", path: listSource(root, "github", corpus)[0]!.spec },
    { name: "stripe", path: listSource(root, "stripe", corpus)[0]!.spec },
  ].filter((spec) => !only || only.includes(spec.name));
}

/** The keys of `components.schemas` in openapi-typescript's output. */
async function anchorSchemas(path: string): Promise<string[]> {
  const text = astToString(await openapiTS(new URL(`file://${path}`)));
  const file = ts.createSourceFile("anchor.d.ts", text, ts.ScriptTarget.Latest);
  const names: string[] = [];
  file.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== "components") return;
    for (const member of node.members) {
      if (!ts.isPropertySignature(member) || member.name.getText(file).replace(/["']/g, "") !== "schemas") continue;
      if (member.type && ts.isTypeLiteralNode(member.type))
        for (const schema of member.type.members)
          if (schema.name)
            names.push(JSON.parse(JSON.stringify(schema.name.getText(file).replace(/^["']|["']$/g, ""))));
    }
  });
  return names;
}

/** The exported type names of the generated named-type files. */
function exportedTypes(dir: string): Set<string> {
  const files = [join(dir, "src/schemas.ts")];
  try {
    files.push(...readdirSync(join(dir, "src/schemas")).map((name) => join(dir, "src/schemas", name)));
  } catch {
    // Not split.
  }
  const names = new Set<string>();
  for (const path of files) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
    file.forEachChild((node) => {
      if (
        (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
        node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      )
        names.add(node.name.text);
    });
  }
  return names;
}

/** Compiles a probe of GitHub's typed client in the generated project: issue.number is a number. */
function probeGitHub(dir: string): string {
  writeFileSync(
    join(dir, "src/custom/probe.ts"),
    `import type { Api } from "../api.js";

export async function probe(api: Api): Promise<number> {
  const issue = await api.issues_get({ owner: "octocat", repo: "hello-world", issue_number: 1 });
  const number: number = issue.number;
  // @ts-expect-error issue.number is a number, not a string
  const text: string = issue.number;
  void text;
  return number;
}
`,
  );
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  try {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", dir, "--noEmit"], {
      stdio: "pipe",
    });
    return "issue.number: number (strict tsc passes with the probe)";
  } catch (error) {
    return `probe FAILED: ${String((error as { stdout?: Buffer }).stdout ?? error)}`;
  }
}

const work = keep ?? mkdtempSync(join(tmpdir(), "mcp-gen-types-anchor-"));
const rows: string[] = [];
let lacking = 0;
for (const spec of specs()) {
  const dir = join(work, spec.name);
  const result = await generate({ spec: spec.path, outDir: dir, force: true, features: ["custom"] });
  const ours = exportedTypes(dir);
  const nameOf = new Map(
    result.plan.types.named.flatMap((n) => (n.component !== undefined ? [[n.component, n.name]] : [])),
  );
  const components = result.plan.types.named.filter((n) => n.component !== undefined).length;
  if (result.plan.specVersion === "2.0") {
    const exported = [...nameOf.values()].filter((n) => ours.has(n)).length;
    rows.push(
      `| ${spec.name} | 2.0 | — | ${components} | — | — | openapi-typescript reads 3.x only; ours: ${exported}/${components} exported |`,
    );
    continue;
  }
  const anchor = await anchorSchemas(spec.path);
  const both = anchor.filter((key) => nameOf.has(key) && ours.has(nameOf.get(key)!));
  const missing = anchor.filter((key) => !both.includes(key));
  lacking += missing.length;
  const notes = spec.name === "github" ? probeGitHub(dir) : "";
  rows.push(
    `| ${spec.name} | ${result.plan.specVersion} | ${anchor.length} | ${components} | ${both.length} | ${missing.length === 0 ? "none" : missing.slice(0, 10).join(", ")} | ${notes} |`,
  );
  console.error(`${spec.name}: ${both.length}/${anchor.length} of openapi-typescript's named schemas`);
}
console.log(
  "| spec | version | openapi-typescript named schemas | our named components | both have | ours lack | notes |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
if (!keep) rmSync(work, { recursive: true, force: true });
process.exitCode = lacking > 0 ? 1 : 0;
