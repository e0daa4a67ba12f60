/**
 * `--target`: node by default (the project as it always was), worker adds the runtime feature fetch
 * and only its own files, scripts and dev dependencies; a feature the Worker cannot carry is MG207;
 * the targets are remembered by the project.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/index.js";
import { GenerationError } from "../../generator/shared/diagnostics.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const petstore = join(root, "specs", "petstore.yaml");

const paths = (files: Array<{ path: string }>) => new Set(files.map((file) => file.path));
const text = (files: Array<{ path: string; content: string | Buffer }>, path: string) =>
  String(files.find((file) => file.path === path)!.content);

test("worker adds only its entry, deploy files, scripts and dev dependency; node adds none", async () => {
  const node = await generate({ spec: petstore });
  const worker = await generate({ spec: petstore, targets: ["worker"] });
  assert.equal(node.plan.targets, ["node"]);
  assert.equal(worker.plan.targets, ["worker"]);
  assert.not.ok(node.plan.features.includes("fetch"));
  assert.ok(worker.plan.features.includes("fetch"));
  const added = [...paths(worker.files)].filter((path) => !paths(node.files).has(path)).sort();
  assert.equal(
    added.filter((path) => !path.startsWith("src/runtime/")),
    ["scripts/bundle-worker.mjs", "src/worker-data.d.ts", "src/worker.ts", "wrangler.toml"],
  );
  assert.ok(added.filter((path) => path.startsWith("src/runtime/")).every((path) => path.includes("/features/fetch/")));
  const pkg = JSON.parse(text(worker.files, "package.json")) as {
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
    dependencies: Record<string, string>;
  };
  assert.match(pkg.scripts["dev:worker"]!, /^npm run build && wrangler dev --ip 127\.0\.0\.1/);
  assert.match(pkg.scripts.build!, /&& node scripts\/bundle-worker\.mjs$/);
  assert.match(pkg.devDependencies.wrangler!, /^\d+\.\d+\.\d+$/);
  assert.ok(pkg.dependencies["@cfworker/json-schema"]);
  const nodePkg = JSON.parse(text(node.files, "package.json")) as typeof pkg;
  assert.is(nodePkg.scripts["dev:worker"], undefined);
  assert.is(nodePkg.devDependencies.wrangler, undefined);
  assert.match(text(worker.files, ".gitignore"), /^\.dev\.vars$/m);
  // The Node entry never plugs feature fetch in: a Node server keeps node:http and got.
  assert.not.match(text(worker.files, "src/index.ts"), /fetch/);
  assert.match(text(worker.files, "src/worker.ts"), /serveFetch\(serverInfo/);
  assert.match(text(worker.files, "wrangler.toml"), /compatibility_flags = \["nodejs_compat"\]/);
  assert.match(text(worker.files, "README.md"), /npm run deploy:worker/);
  assert.not.match(text(node.files, "README.md"), /deploy:worker/);
});

test("a feature the Worker cannot carry, or an unknown target, is MG207; nothing is planned", async () => {
  for (const [options, message] of [
    [{ targets: ["worker"], features: ["redis"] }, /Target worker cannot carry runtime feature redis/],
    [{ targets: ["worker"], defaultSurface: "code" as const }, /cannot carry runtime feature code/],
    [{ targets: ["mainframe"] }, /Unknown target 'mainframe'/],
  ] as const) {
    const error = await generate({ spec: petstore, planOnly: true, ...options }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof GenerationError, JSON.stringify(options));
    const codes = error.diagnostics.map((diagnostic) => diagnostic.code);
    assert.ok(codes.includes("MG207"), codes.join());
    assert.match(error.diagnostics.map((diagnostic) => diagnostic.message).join("\n"), message);
  }
});

test("the targets are remembered: a later run without --target keeps them; node alone is not written", async () => {
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-targets-"));
  try {
    const out = join(work, "out");
    await generate({ spec: petstore, outDir: out, targets: ["node", "worker"] });
    const manifest = () =>
      JSON.parse(readFileSync(join(out, ".mcp-gen", "manifest.json"), "utf8")) as Record<string, unknown>;
    assert.equal(manifest().targets, ["node", "worker"]);
    const again = await generate({ spec: petstore, outDir: out });
    assert.equal(again.plan.targets, ["node", "worker"]);
    await generate({ spec: petstore, outDir: out, targets: ["node"] });
    assert.is(manifest().targets, undefined);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** The package tools/runtimes installs to test a dev dependency (the binary's own package for deno). */
const TESTED_AS: Record<string, string> = { deno: "@deno/linux-x64-glibc" };

test("deno, bun and lambda add only their entry and deploy files, scripts and pins; lambda also feature lambda", async () => {
  const node = await generate({ spec: petstore });
  const expected: Record<string, { files: string[]; scripts: string[]; dev: string[] }> = {
    deno: { files: ["deno.json", "src/deno.ts"], scripts: ["deploy:deno", "dev:deno"], dev: ["deno"] },
    bun: { files: ["src/bun.ts"], scripts: ["dev:bun", "start:bun"], dev: [] },
    lambda: {
      files: ["serverless.yml", "src/lambda.ts"],
      scripts: ["deploy:lambda", "dev:lambda"],
      dev: ["serverless", "serverless-offline"],
    },
  };
  const runtimes = JSON.parse(readFileSync(join(root, "tools", "runtimes", "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const [target, want] of Object.entries(expected)) {
    const project = await generate({ spec: petstore, targets: [target] });
    const added = [...paths(project.files)].filter((path) => !paths(node.files).has(path));
    assert.equal(added.filter((path) => !path.startsWith("src/runtime/")).sort(), want.files, target);
    const features = added.filter((path) => path.startsWith("src/runtime/")).map((path) => path.split("/")[3]);
    assert.equal([...new Set(features)].sort(), target === "lambda" ? ["fetch", "lambda"] : ["fetch"], target);
    const pkg = JSON.parse(text(project.files, "package.json")) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    assert.equal(
      Object.keys(pkg.scripts)
        .filter((name) => name.includes(":"))
        .sort(),
      want.scripts,
      target,
    );
    // The pins of a generated project are those the e2e tests run (tools/runtimes/package.json).
    for (const name of want.dev)
      assert.is(pkg.devDependencies[name], runtimes.dependencies[TESTED_AS[name] ?? name], `${target} ${name}`);
    assert.match(
      text(project.files, "README.md"),
      new RegExp(`npm run ${want.scripts.find((s) => s.startsWith("dev:"))}`),
    );
    // The Node entry stays the Node entry: no fetch, no lambda.
    assert.equal(text(project.files, "src/index.ts"), text(node.files, "src/index.ts"));
  }
  const lambda = await generate({ spec: petstore, targets: ["lambda"] });
  assert.match(text(lambda.files, "src/lambda.ts"), /features: \[lambda\]/);
  assert.match(text(lambda.files, "serverless.yml"), /^ {4}API_BASE_URL: \$\{env:API_BASE_URL, ''\}$/m);
  assert.match(text(lambda.files, ".gitignore"), /^\.serverless\/$/m);
  assert.match(text((await generate({ spec: petstore, targets: ["bun"] })).files, "src/bun.ts"), /upstream: "got"/);
  assert.not.match(text((await generate({ spec: petstore, targets: ["deno"] })).files, "src/deno.ts"), /upstream:/);
});

test("deno and bun refuse the features of the Node server's HTTP transport; lambda also tasks and rate-limit", async () => {
  for (const [targets, features, message] of [
    [["deno"], ["sessions"], /Target deno cannot carry runtime feature sessions/],
    [["bun"], ["legacy-sse"], /Target bun cannot carry runtime feature legacy-sse/],
    [["lambda"], ["tasks"], /Target lambda cannot carry runtime feature tasks: a task outlives its request/],
    [["lambda"], ["rate-limit"], /Target lambda cannot carry runtime feature rate-limit/],
  ] as const) {
    const error = await generate({
      spec: petstore,
      planOnly: true,
      targets: [...targets],
      features: [...features],
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof GenerationError, `${targets[0]} with ${features[0]} generated`);
    assert.match(error.diagnostics.map((diagnostic) => diagnostic.message).join("\n"), message);
  }
  const deno = await generate({ spec: petstore, planOnly: true, targets: ["deno"], features: ["tasks"] });
  assert.ok(deno.plan.features.includes("tasks"));
});

test.run();
