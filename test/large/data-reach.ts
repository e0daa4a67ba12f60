/**
 * A large server's data files reach every operation (issue 54): each tool read alone by byte range
 * (as call_operation and describe_operation read it, through packed blocks when the files are
 * packed) equals the same tool in the whole file, for a sample spread over the tool order; and
 * every tool has its declaration (code mode's typed `api`), read alone, equal to the whole file's.
 * `node dist/test/large/data-reach.js <generated folder>`; test/large/run.ts runs it on each source.
 */
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readRecord } from "../../runtime/src/features/large-data/offsets-file.js";
import { readDataText, readRange } from "../../runtime/src/features/large-data/packed-file.js";
import { rangedToolSource } from "../../runtime/src/features/large-data/ranged-tools.js";

/** Tools read alone in the sample: spread evenly over the tool order, first and last included. */
export const SAMPLE = 200;

/** What is wrong with the data of the server in `dir` (empty: nothing). */
export function dataReachProblems(dir: string): string[] {
  const data = pathToFileURL(join(dir, "data") + "/");
  const problems: string[] = [];
  const whole = rangedToolSource(data).load();
  const alone = rangedToolSource(data);
  const declarations = JSON.parse(readDataText(new URL("declarations.json", data)) ?? "{}") as Record<string, string>;
  const step = Math.max(1, Math.floor((whole.length - 1) / (SAMPLE - 1)));
  for (let index = 0; index < whole.length; index += step) {
    const tool = whole[index]!;
    if (JSON.stringify(alone.get(tool.name)) !== JSON.stringify(tool))
      problems.push(`tool ${tool.name} read alone differs`);
  }
  whole.forEach((tool, index) => {
    const record = readRecord(
      (at, length) => readRange(new URL("declaration-offsets.txt", data), at, length),
      index,
      2,
    );
    if (!record || record[1] === 0) return void problems.push(`tool ${tool.name} has no declaration`);
    if (index % step !== 0) return;
    const text = JSON.parse(readRange(new URL("declarations.json", data), record[0]!, record[1]!)) as string;
    if (text !== declarations[tool.name]) problems.push(`declaration of ${tool.name} read alone differs`);
  });
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = dataReachProblems(process.argv[2] ?? ".");
  console.log(problems.length === 0 ? "data reach: every check passed" : problems.slice(0, 20).join("\n"));
  process.exit(problems.length === 0 ? 0 : 1);
}
