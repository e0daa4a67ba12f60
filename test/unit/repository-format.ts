/**
 * The repository's own source is formatted by prettier (`.prettierrc.json`, `.prettierignore`; `npm run
 * format` writes, `npm run format:check` checks): a change that is not formatted fails the suite, so the
 * code keeps one layout whoever writes it. Generated output (generated/, examples) is formatted by the
 * generator itself and is ignored here; so are handlebars templates, which prettier cannot parse.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";

const root = fileURLToPath(new URL("../../../", import.meta.url));

test("every source file of the repository is formatted as prettier formats it (npm run format)", async () => {
  const prettier = join(root, "node_modules", "prettier", "bin", "prettier.cjs");
  try {
    // prettier's cache (content-keyed, in .tmp/) skips files already seen formatted as they are: a
    // second run takes seconds instead of most of a minute. A file that changed is checked again, and
    // one that is not formatted is never cached as formatted.
    const cache = ["--cache", "--cache-strategy", "content", "--cache-location", ".tmp/prettier-cache"];
    await promisify(execFile)(process.execPath, [prettier, "--list-different", ...cache, "."], {
      cwd: root,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    assert.unreachable(
      `prettier --list-different (exit ${e.code}) lists files that are not formatted; run npm run format:\n${e.stdout ?? ""}${e.stderr ?? ""}`,
    );
  }
});

test.run();
