/**
 * `--ref-root` and `--allow-remote` reach the loader from every command that reads a spec
 * (generate, diff, lint): they are declared once (cli/spec-source-options.ts), and this proves
 * each command still passes them on. A spec whose `$ref` leaves its folder is refused (exit 1)
 * unless `--ref-root` names a folder that contains both; a spec served over HTTP is read only with
 * `--allow-remote`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { run } from "../../cli/index.js";
import { EXIT } from "../../cli/exit-codes.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-cli-source-"));
const tree = join(work, "tree");
mkdirSync(join(tree, "api"), { recursive: true });
writeFileSync(join(tree, "shared.yaml"), "type: object\nproperties:\n  id: { type: integer }\n");
const spec = join(tree, "api", "spec.yaml");
writeFileSync(
  spec,
  `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: "../shared.yaml"\n`,
);

/** Runs the CLI in process with its output swallowed (the exit code is what is checked). */
async function quietRun(argv: string[]): Promise<number> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return await run(argv);
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

test("diff: a $ref outside the spec's folder needs --ref-root", async () => {
  assert.is(await quietRun(["diff", spec, spec]), EXIT.specError);
  assert.is(await quietRun(["diff", spec, spec, "--ref-root", tree]), EXIT.ok);
});

test("lint: a $ref outside the spec's folder needs --ref-root", async () => {
  assert.is(await quietRun(["lint", spec, "--client", "cursor"]), EXIT.specError);
  assert.is(await quietRun(["lint", spec, "--client", "cursor", "--ref-root", tree]), EXIT.ok);
});

test("generate: a $ref outside the spec's folder needs --ref-root", async () => {
  assert.is(await quietRun([spec, "-o", join(work, "refused")]), EXIT.specError);
  assert.is(await quietRun([spec, "-o", join(work, "server"), "--ref-root", tree]), EXIT.ok);
});

test("--allow-remote: a spec served over HTTP (on loopback) is read only with the flag", async () => {
  const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        "200": { description: ok }\n`;
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/yaml" }).end(text));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/spec.yaml`;
  try {
    assert.is(await quietRun(["diff", url, url]), EXIT.specError);
    assert.is(await quietRun(["diff", url, url, "--allow-remote"]), EXIT.ok);
    assert.is(await quietRun(["lint", url, "--client", "cursor"]), EXIT.specError);
    assert.is(await quietRun(["lint", url, "--client", "cursor", "--allow-remote"]), EXIT.ok);
    assert.is(await quietRun([url, "-o", join(work, "remote-refused")]), EXIT.specError);
    assert.is(await quietRun([url, "-o", join(work, "remote"), "--allow-remote"]), EXIT.ok);
  } finally {
    server.close();
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
