/**
 * Target bun: `src/bun.ts`, the entry (`Bun.serve` with the runtime's fetch handler). `npm run
 * dev:bun` builds and serves it on Bun at http://127.0.0.1:$PORT/mcp; `npm run start:bun` serves the
 * build. Bun comes from the user's PATH: the npm package `bun` installs its binary in an install
 * script, which many setups block. Upstream calls keep got, which runs on Bun (measured,
 * docs/guide/deploying/bun.md).
 */
import type { ProjectPlan } from "../../plan/plan-types.js";
import { fileEntry } from "./file-entry.js";
import type { TargetEmitter } from "./target-emitter.js";

/** Bun reads a .env file of the working folder by default; settings come from the environment only. */
const START = "bun --no-env-file dist/bun.js";

export const bunTarget: TargetEmitter = {
  files: (plan) => [{ path: "src/bun.ts", content: bunEntry(plan) }],
  scripts: {
    // Bun on $HOST:$PORT (default 127.0.0.1:3000); settings from the environment.
    "dev:bun": `npm run build && ${START}`,
    "start:bun": START,
  },
};

/** `src/bun.ts`: the server on `Bun.serve`. */
function bunEntry(plan: ProjectPlan): string {
  return `${fileEntry(plan, {
    about: [
      "The Bun entry (--target bun): the MCP endpoint at /mcp as a fetch handler on Bun.serve,",
      "stateless, for both protocol eras. Settings and credentials come from the process environment",
      "(the scripts run Bun with --no-env-file: no file is read for them). Upstream calls use got, as",
      "on Node.",
    ],
    env: "Bun.env",
    imports: ['import { isLoopbackHost } from "./runtime/transport/transport.js";'],
    loopback: "isLoopbackHost(host)",
    upstream: "got",
    before: [
      "/** The part of Bun's namespace this entry uses (the project compiles with Node's types). */",
      "declare const Bun: {",
      "  env: Record<string, string | undefined>;",
      "  serve(options: {",
      "    hostname: string;",
      "    port: number;",
      "    idleTimeout: number;",
      "    fetch(request: Request): Promise<Response>;",
      "  }): { hostname: string; port: number };",
      "};",
      "",
    ],
    after: ['const host = env.HOST ?? "127.0.0.1";'],
  })}
const server = Bun.serve({
  hostname: host,
  port: Number(env.PORT ?? 3000),
  // Seconds a connection may stay silent (Bun's default, 10, would cut a slow call); 255 is Bun's most.
  idleTimeout: 255,
  fetch: handle,
});
console.error(\`\${serverInfo.name} \${serverInfo.version} listening on http://\${server.hostname}:\${server.port}/mcp\`);
`;
}
