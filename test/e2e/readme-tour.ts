/**
 * The README's tour on a fresh clone: the generate commands of "A 5-minute tour", as README.md writes
 * them, run in a `git clone` of this repository, and then the checks that read the repository's
 * files (git's view of the checkout, which prettier's formatting check also follows) still pass: the
 * tour writes its project next to the checkout, not into it. The README's first two commands stay
 * `npm install && npm run demo` and `npm test`, and it says what `npm test` installs and how long it takes.
 *
 * Bounded: the clone shares the checkout's node_modules (a symlink; git ignores it) and a copy of its
 * dist/ instead of `npm install` and its build, and `npx mcp-gen` runs as `node bin/mcp-gen.js`, what
 * npx starts once it has installed the checkout. The generated project's own npm install, build and
 * test are test/e2e/generated-npm-test.ts's.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs git and a built checkout (~10 s).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "../support/e2e.js";

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-tour-"));
const clone = join(work, "mcp-gen");
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The shell lines of the tour's first code block (its Generate step), comments dropped. */
function tourCommands(): string[] {
  const tour = readme.slice(readme.indexOf("## A 5-minute tour"));
  const block = /```sh\n([\s\S]*?)```/.exec(tour)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

test("the README's first commands, and what npm test costs", () => {
  const first = /```sh\n([\s\S]*?)```/.exec(readme)![1]!.split("\n");
  assert.match(first[0]!, /^npm install && npm run demo\s/);
  assert.match(first[1]!, /^npm test\s/);
  const after = readme.slice(readme.indexOf("```", readme.indexOf("npm test")), readme.indexOf("## A 5-minute tour"));
  for (const word of [
    "redis-server",
    "nginx",
    "Chromium",
    "Verdaccio",
    "spec packages",
    "minutes",
    "npm run test:unit",
  ])
    assert.ok(after.includes(word), `the README says what npm test needs: ${word}`);
});

test("the tour's generate commands on a fresh clone leave the checkout as git and prettier see it", async () => {
  await run("git", ["clone", "--quiet", repoRoot, clone], { timeout: 120_000 });
  symlinkSync(join(repoRoot, "node_modules"), join(clone, "node_modules"));
  cpSync(join(repoRoot, "dist"), join(clone, "dist"), { recursive: true });
  const commands = tourCommands();
  const generating = commands.filter((line) => line.startsWith("npx mcp-gen "));
  assert.ok(generating.length > 0, commands.join("\n"));
  for (const line of generating) {
    const args = line.slice("npx mcp-gen ".length).split(/\s+/);
    await run(process.execPath, [join(clone, "bin/mcp-gen.js"), ...args, "--quiet"], { cwd: clone, timeout: 120_000 });
    const out = args[args.indexOf("-o") + 1]!;
    const project = resolve(clone, out);
    assert.ok(existsSync(join(project, "package.json")), `${out} was generated`);
    assert.not.ok(project.startsWith(clone + "/"), `${out} is outside the checkout`);
  }
  const cd = commands.find((line) => line.startsWith("cd "));
  assert.ok(cd && existsSync(resolve(clone, cd.split(/\s+/)[1]!)), `the tour's ${cd} names the project`);
  const status = await run("git", ["status", "--porcelain"], { cwd: clone });
  assert.is(status.stdout, "", "the tour adds no file git or prettier would see in the checkout");
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
