/**
 * Target deno: `src/deno.ts`, the entry (`Deno.serve` with the runtime's fetch handler), and
 * `deno.json`. `npm run dev:deno` builds and serves it on Deno at http://127.0.0.1:$PORT/mcp;
 * `npm run deploy:deno` deploys it to Deno Deploy. Upstream calls use the platform's fetch: got's
 * own timeouts never fire on Deno (measured, docs/guide/deploying/deno.md).
 */
import { readPackageJson } from "../../../shared/package-root.js";
import type { ProjectPlan } from "../../plan/plan-types.js";
import type { EmittedFile } from "../emitted-file.js";
import { fileEntry } from "./file-entry.js";
import type { TargetEmitter } from "./target-emitter.js";

/** What the server needs of Deno: the network, its settings, the project's data/ files, and what Node's compatibility layer reads of the system. */
const PERMISSIONS = "--allow-net --allow-env --allow-read --allow-sys";

export const denoTarget: TargetEmitter = {
  files: (plan) => [{ path: "src/deno.ts", content: denoEntry(plan) }, denoJson()],
  scripts: {
    // Deno on $HOST:$PORT (default 127.0.0.1:8000); settings from the environment.
    "dev:deno": `npm run build && deno run ${PERMISSIONS} dist/deno.js`,
    "deploy:deno": "npm run build && deno deploy --prod",
  },
  devDependencies: { deno: runtimeDevDependency("deno") },
};

/** The version a target's tool is pinned to (runtime/package.json `devDependencies`, as tools/runtimes tests it). */
export function runtimeDevDependency(name: string): string {
  const runtime = readPackageJson("runtime/package.json") as { devDependencies: Record<string, string> };
  return runtime.devDependencies[name]!;
}

/** `src/deno.ts`: the server on `Deno.serve`. */
function denoEntry(plan: ProjectPlan): string {
  return `${fileEntry(plan, {
    about: [
      "The Deno entry (--target deno): the MCP endpoint at /mcp as a fetch handler on Deno.serve,",
      "stateless, for both protocol eras. Settings and credentials come from the environment (Deno.env:",
      "the process's, or Deno Deploy's variables and secrets); no file is read for them. The data/",
      "files are read from the project folder (--allow-read).",
    ],
    env: "Deno.env.toObject()",
    imports: ['import { isLoopbackHost } from "./runtime/transport/transport.js";'],
    loopback: "isLoopbackHost(host)",
    before: [
      "/** The part of Deno's namespace this entry uses (the project compiles with Node's types). */",
      "declare const Deno: {",
      "  env: { toObject(): Record<string, string> };",
      "  serve(",
      "    options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },",
      "    handler: (request: Request) => Promise<Response>,",
      "  ): unknown;",
      "};",
      "",
    ],
    after: ['const host = env.HOST ?? "127.0.0.1";'],
  })}
Deno.serve(
  {
    hostname: host,
    port: Number(env.PORT ?? 8000),
    onListen: ({ hostname, port }) =>
      console.error(\`\${serverInfo.name} \${serverInfo.version} listening on http://\${hostname}:\${port}/mcp\`),
  },
  handle,
);
`;
}

/** `deno.json`: npm packages from node_modules (npm install), and the start task. */
function denoJson(): EmittedFile {
  const config = {
    nodeModulesDir: "manual",
    tasks: { start: `deno run ${PERMISSIONS} dist/deno.js` },
  };
  return { path: "deno.json", content: JSON.stringify(config, null, 2) + "\n" };
}
