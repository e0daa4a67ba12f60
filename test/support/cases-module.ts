/**
 * A TypeScript module that types a generated project's contract-test arguments (test/cases.json)
 * with its `ToolInputs` map: every case (and the upstream-error case) must be an argument set of its
 * tool's `…Input` type, excess properties included (a case the generator marked `skip`, because no
 * sample satisfies its schema, is left out: its arguments are known not to); with `refused`, every refused case (an argument
 * of the wrong type, a missing one) must not be (`@ts-expect-error`). Used by the golden compile and
 * the corpus runner.
 */

/** The parts of test/cases.json that carry arguments. */
export interface CasesFile {
  cases: Array<{ tool: string; arguments: unknown; skip?: string }>;
  refused?: Array<{ tool: string; arguments: unknown }>;
  upstreamError?: { tool: string; arguments: unknown };
}

/** The module's text; `toolsIndex` is the import specifier of the project's src/tools/index.js. */
export function casesModuleText(
  cases: CasesFile,
  toolsIndex: string,
  options: { refused: boolean },
): { text: string; valid: number } {
  const valid = [
    ...cases.cases.filter((c) => c.skip === undefined),
    ...(cases.upstreamError ? [cases.upstreamError] : []),
  ];
  const lines = [
    `import type { ToolInputs } from ${JSON.stringify(toolsIndex)};`,
    ...valid.map(
      (c, i) => `export const case${i}: ToolInputs[${JSON.stringify(c.tool)}] = ${JSON.stringify(c.arguments)};`,
    ),
    ...(options.refused ? (cases.refused ?? []) : []).flatMap((c, i) => [
      "// @ts-expect-error a refused case is not a valid argument set",
      `export const refused${i}: ToolInputs[${JSON.stringify(c.tool)}] = ${JSON.stringify(c.arguments)};`,
    ]),
  ];
  return { text: lines.join("\n") + "\n", valid: valid.length };
}
