#!/usr/bin/env node
// The main job on the example, end to end, printing what it does: generate specs/petstore.yaml into
// .tmp/demo-server, install and build it, start a Prism mock of the same spec on 127.0.0.1, then
// drive the server over stdio with the official MCP SDK client (list tools, call a few). It uses
// the generator's public entry (generator/index.ts, built into dist/) as a program embedding it would.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generate } from "../dist/generator/index.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

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
for (const args of [
  ["install", "--no-audit", "--no-fund"],
  ["run", "build"],
]) {
  const begun = performance.now();
  execFileSync("npm", args, { cwd: outDir, stdio: ["ignore", "ignore", "inherit"] });
  console.log(`npm ${args[0]} ${Math.round(performance.now() - begun)} ms`);
}

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
  prism.child.kill();
}

/** A free port on 127.0.0.1 (the OS picks it; Prism takes no port 0). */
async function freePort() {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  return port;
}

/** Starts Prism's mock of `specPath`; resolves when it says it is listening (within 30 s). */
async function startPrism(specPath) {
  const port = await freePort();
  const bin = join(repoRoot, "node_modules", ".bin", "prism");
  const child = spawn(process.execPath, [bin, "mock", "-h", "127.0.0.1", "-p", String(port), specPath], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`Prism did not start within 30 s:\n${output}`));
    }, 30_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", () => reject(new Error(`Prism exited:\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}
