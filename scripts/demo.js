#!/usr/bin/env node
// The main job on the example, end to end, printing what it does: generate specs/petstore.yaml into
// .tmp/demo-server, install and build it, start a Prism mock of the same spec on 127.0.0.1, then
// drive the server over stdio with the official MCP SDK client (list tools, call a few).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generate } from "../dist/generator/pipeline/generate.js";
import { buildGeneratedProject, repoRoot, startPrism } from "../dist/test/e2e/support.js";

const spec = join(repoRoot, "specs/petstore.yaml");
const outDir = join(repoRoot, ".tmp/demo-server");
const step = (text) => console.log(`\n== ${text}`);

step(`generate ${spec} → ${outDir}`);
rmSync(outDir, { recursive: true, force: true });
const started = performance.now();
const result = await generate({ spec, outDir });
console.log(
  `${result.plan.tools.length} tools, ${result.files.length} files in ${Math.round(performance.now() - started)} ms`,
);

step("npm install && npm run build (in the generated project)");
const build = await buildGeneratedProject(outDir, { install: true });
console.log(`install ${Math.round(build.installMs)} ms, build ${Math.round(build.buildMs)} ms`);

step("start a Prism mock of the same spec");
const prism = await startPrism(spec);
console.log(`Prism listening on ${prism.url}`);
const client = new Client({ name: "mcp-gen-demo", version: "1.0.0" });
try {
  step("connect the MCP SDK client over stdio: node dist/index.js --base-url " + prism.url);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(outDir, "dist/index.js"), "--base-url", prism.url],
      stderr: "inherit",
    }),
  );
  console.log(`server: ${JSON.stringify(client.getServerVersion())}`);
  const { tools } = await client.listTools();
  for (const tool of tools) console.log(`  tool ${tool.name.padEnd(13)} ${tool.description?.split("\n")[0]}`);
  const calls = [
    ["listPets", { limit: 2, status: "available" }],
    ["createPet", { name: "Rex", tag: "dog", "X-Request-Id": "demo-1" }],
    ["getPet", { petId: 1 }],
    ["deletePet", { petId: 1 }],
    ["createPet", { tag: "no name" }],
  ];
  for (const [name, args] of calls) {
    step(`tools/call ${name} ${JSON.stringify(args)}`);
    const answer = await client.callTool({ name, arguments: args });
    console.log(`isError: ${answer.isError === true}`);
    if (answer.structuredContent)
      console.log(`structuredContent: ${JSON.stringify(answer.structuredContent).slice(0, 200)}`);
    else console.log(`text: ${answer.content?.[0]?.text?.slice(0, 200)}`);
  }
  step("done: the generated server is in .tmp/demo-server");
} finally {
  await client.close().catch(() => {});
  await prism.stop();
}
