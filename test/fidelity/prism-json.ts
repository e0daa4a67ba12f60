/**
 * A Prism mock server that logs as JSON lines on stdout (one pino record per line), so the
 * fidelity runner can read every validator message as data. It is the `prism mock --errors`
 * stack of the pinned `@stoplight/prism-cli` (same operations loader, same server, same
 * configuration), with the CLI's pretty printer replaced by plain JSON output.
 *
 *   node dist/test/fidelity/prism-json.js --port 4010 [--host 127.0.0.1] SPEC
 *
 * Prints `{"msg":"Prism is listening on http://…"}` once ready; exits 2 when the spec cannot be
 * loaded (the message is on stdout as a `fatal` record).
 */
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Resolve Prism's packages from the CLI's own folder: exactly the versions the CLI runs with.
const fromCli = createRequire(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json"));

interface PrismServer {
  listen(port: number, host: string): Promise<string>;
}

/** Starts the mock; resolves with its address. */
export async function startJsonPrism(spec: string, port: number, host = "127.0.0.1"): Promise<string> {
  const { createLogger } = fromCli("@stoplight/prism-core") as {
    createLogger: (name: string, options: Record<string, unknown>, destination?: NodeJS.WritableStream) => unknown;
  };
  const { getHttpOperationsFromSpec } = fromCli("@stoplight/prism-http") as {
    getHttpOperationsFromSpec: (spec: string) => Promise<unknown[]>;
  };
  const { createServer } = fromCli("@stoplight/prism-http-server") as {
    createServer: (operations: unknown[], options: Record<string, unknown>) => PrismServer;
  };
  const logger = createLogger(
    "CLI",
    { level: "info", formatters: { level: (level: string) => ({ level }) } },
    process.stdout,
  ) as { child(bindings: object): unknown; info(message: string): void };
  const operations = await getHttpOperationsFromSpec(resolve(spec));
  if (operations.length === 0) throw new Error("No operations found in the current file.");
  const server = createServer(operations, {
    cors: false,
    config: {
      isProxy: false,
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: true,
      upstreamProxy: undefined,
      mock: { dynamic: false, ignoreExamples: false, seed: null },
    },
    components: { logger: logger.child({ name: "HTTP SERVER" }) },
  });
  const address = await server.listen(port, host);
  logger.info(`Prism is listening on ${address}`);
  return address;
}

function flag(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const spec = argv.filter((arg, i) => !arg.startsWith("--") && !(argv[i - 1] ?? "").startsWith("--")).at(-1);
  if (!spec) {
    process.stderr.write("usage: prism-json --port PORT [--host HOST] SPEC\n");
    process.exit(2);
  }
  startJsonPrism(spec, Number(flag(argv, "--port") ?? 4010), flag(argv, "--host") ?? "127.0.0.1").catch(
    (error: unknown) => {
      process.stdout.write(JSON.stringify({ level: "fatal", msg: String((error as Error).message ?? error) }) + "\n");
      process.exit(2);
    },
  );
}
