/**
 * Issue 10 item 4: output paths that cannot be a project folder are refused with MG204 (even with
 * --force), and staging folders left by killed runs are removed by the next run (live ones are not).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { GenerationError } from "../../generator/shared/diagnostics.js";
import { removeDeadStagingFolders } from "../../generator/pipeline/write/staging.js";
import { writeOutput } from "../../generator/pipeline/write/write-output.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-write-edges-"));
const files = [{ path: "a.txt", content: "a" }];

async function refusal(outDir: string): Promise<GenerationError> {
  try {
    await writeOutput(outDir, files, { force: true });
  } catch (error) {
    if (error instanceof GenerationError) return error;
    throw error;
  }
  throw new Error("writeOutput did not refuse");
}

test("an output path that is a file, or lies under one, is MG204 even with --force, and the file is untouched", async () => {
  const path = join(work, "a-file");
  writeFileSync(path, "keep me");
  let error = await refusal(path);
  assert.equal(
    error.diagnostics.map((d) => d.code),
    ["MG204"],
  );
  assert.match(error.diagnostics[0]!.message, /is a file, not a folder/);
  error = await refusal(join(path, "sub", "server"));
  assert.equal(
    error.diagnostics.map((d) => d.code),
    ["MG204"],
  );
  assert.match(error.diagnostics[0]!.message, /lies under .*a-file, which is a file/);
  assert.is(readFileSync(path, "utf8"), "keep me");
});

test("a dead run's staging folder is removed by the next run; a live run's is kept", async () => {
  const parent = join(work, "staging");
  mkdirSync(parent);
  // A process that has exited: its pid is free (reuse within this test is practically impossible).
  const child = spawn(process.execPath, ["-e", ""]);
  const deadPid = await new Promise<number>((resolve) => child.on("exit", () => resolve(child.pid!)));
  const dead = join(parent, `.server.mcp-gen-${deadPid}-0123abcd`);
  const live = join(parent, `.server.mcp-gen-${process.ppid}-89abcdef`);
  const other = join(parent, `.other.mcp-gen-${deadPid}-0123abcd`);
  for (const dir of [dead, live, other]) mkdirSync(join(dir, "new"), { recursive: true });
  await writeOutput(join(parent, "server"), files, {});
  assert.not.ok(existsSync(dead), "the dead run's folder is gone");
  assert.ok(existsSync(live), "a live process's folder stays");
  assert.ok(existsSync(other), "another output's folder stays");
  assert.is(readFileSync(join(parent, "server", "a.txt"), "utf8"), "a");
  assert.equal(await removeDeadStagingFolders(join(parent, "server")), []);
});

test.run();
