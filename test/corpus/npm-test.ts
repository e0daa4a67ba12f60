/**
 * Runs a generated project's own contract test (`test/server.test.mjs`, the test half of its
 * `npm test`) after the corpus runner has compiled it, and counts the cases node's test runner
 * reports. The project's node_modules is the repository's (symlinked), so nothing is installed.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Cases passed and failed, and the first failures (name and reason), of one project's test. */
export interface NpmTestOutcome {
  passed: number;
  failed: number;
  /** Exit code of `node --test` (0 when every case passed). */
  code: number;
  failures: string[];
}

/** Reads node's TAP totals (`# pass N`, `# fail N`) and the names of failed cases. */
export function parseTap(output: string): Omit<NpmTestOutcome, "code"> {
  const number = (label: string): number => Number(new RegExp(`^# ${label} (\\d+)$`, "m").exec(output)?.[1] ?? 0);
  const failures: string[] = [];
  const lines = output.split("\n");
  for (const [index, line] of lines.entries()) {
    const match = /^not ok \d+ - (.*)$/.exec(line);
    if (!match) continue;
    // The reason is the first `error:` line of the case's YAML block.
    const block = lines.slice(index + 1, index + 40);
    const at = block.findIndex((l) => /^\s+error: /.test(l));
    // A multi-line message is a YAML block scalar (`error: |-`): its first line follows.
    let reason = at >= 0 ? block[at]!.trim().slice(7) : "";
    if (/^[|>]-?$/.test(reason)) reason = block[at + 1]?.trim() ?? "";
    failures.push(`${match[1]}${reason ? ` — ${reason.slice(0, 300)}` : ""}`);
  }
  return { passed: number("pass"), failed: number("fail"), failures };
}

/** Runs `node --test test/server.test.mjs` in a compiled project; never throws. */
export async function runNpmTest(dir: string, timeoutMs = 300_000): Promise<NpmTestOutcome> {
  try {
    const { stdout } = await run(process.execPath, ["--test", "--test-reporter=tap", "test/server.test.mjs"], {
      cwd: dir,
      timeout: timeoutMs,
      maxBuffer: 256 * 2 ** 20,
    });
    return { code: 0, ...parseTap(stdout) };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; message: string };
    const parsed = parseTap(e.stdout ?? "");
    if (parsed.passed + parsed.failed === 0) parsed.failures.push(`node --test failed: ${e.message.slice(0, 300)}`);
    return { code: typeof e.code === "number" ? e.code : -1, ...parsed };
  }
}
