import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const project = mkdtempSync(join(tmpdir(), "mcp-gen-mock-"));

test("npm run mock: the generated project's stand-in prints its URL and answers with the examples", async () => {
  const { files } = await generate({ spec: join(root, "specs/petstore.yaml") });
  const out = new Map(files.map((f) => [f.path, f.content]));
  assert.is(JSON.parse(out.get("package.json")!).scripts.mock, "node scripts/mock.mjs");
  for (const path of ["scripts/mock.mjs", "test/cases.json"]) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), out.get(path)!);
  }
  const { cases } = JSON.parse(out.get("test/cases.json")!) as {
    cases: Array<{ tool: string; response: { status: number; body: unknown } }>;
  };
  const getPet = cases.find((c) => c.tool === "getPet")!;
  const child = spawn(process.execPath, ["scripts/mock.mjs"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => reject(new Error(`no URL within 10 s: ${text}`)), 10_000);
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("Ctrl+C")) {
          clearTimeout(timer);
          resolve(text);
        }
      });
    });
    const url = /listening at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(printed)?.[1];
    assert.ok(url, printed);
    assert.ok(printed.includes(`node dist/index.js --base-url ${url}\n`), printed);
    const answer = await fetch(`${url}/pets/7`);
    assert.is(answer.status, getPet.response.status);
    assert.equal(await answer.json(), getPet.response.body);
    const unknown = await fetch(`${url}/owners`);
    assert.is(unknown.status, 404);
    assert.match(((await unknown.json()) as { message: string }).message, /no operation of the API is GET \/owners/);
  } finally {
    child.kill();
  }
});

test.after(() => rmSync(project, { recursive: true, force: true }));
test.run();
