import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { npmLicense, parseRepository, registryName } from "../../generator/pipeline/plan/publishing.js";
import {
  compileServerJsonValidator,
  PRECOMPILED_SERVER_VALIDATOR,
  serverJsonValidator,
  serverJsonViolations,
} from "../../generator/pipeline/emit/publishing/server-json-check.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { Ajv } from "ajv";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const files = async (
  spec: string,
  extra: { packageName?: string; repository?: string; mcpName?: string; features?: string[] } = {},
) => {
  const result = await generate({ spec: join(root, spec), ...extra });
  return new Map(result.files.map((f) => [f.path, f.content]));
};

test("server.json passes the MCP Registry's official 2025-12-11 schema (ajv) and matches package.json", async () => {
  for (const spec of [
    "specs/petstore.yaml",
    "specs/fixtures/oas31-library.json",
    "specs/fixtures/swagger2-petstore.yaml",
  ]) {
    const out = await files(spec);
    const server = JSON.parse(out.get("server.json")!) as Record<string, unknown> & {
      packages: Array<Record<string, unknown>>;
    };
    const pkg = JSON.parse(out.get("package.json")!) as Record<string, unknown>;
    assert.equal(serverJsonViolations(server, pkg), [], spec);
    assert.is(server.$schema, "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    assert.ok((server.description as string).length <= 100);
    assert.is(server.name, pkg.mcpName, "the registry verifies npm ownership through mcpName");
    assert.is(server.packages[0]!.identifier, pkg.name);
    assert.is(server.packages[0]!.version, pkg.version);
    assert.is(server.version, pkg.version);
  }
});

test("the server.json check refuses what the registry refuses, naming each problem", () => {
  const schemaFile = join(root, "profiles/registry/server.schema.json");
  const schema = JSON.parse(readFileSync(schemaFile, "utf8")) as { $id: string };
  assert.is(
    schema.$id,
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    "the vendored file is the 2025-12-11 schema",
  );
  assert.is(
    createHash("sha256").update(readFileSync(schemaFile)).digest("hex"),
    "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0",
    "and unchanged",
  );
  const valid = {
    $schema: schema.$id,
    name: "io.github.acme/pets",
    description: "Pets.",
    version: "1.2.0",
    packages: [{ registryType: "npm", identifier: "pets-mcp", version: "1.2.0", transport: { type: "stdio" } }],
  };
  assert.equal(serverJsonViolations(valid, { mcpName: "io.github.acme/pets", version: "1.2.0" }), []);
  const problems = (doc: Record<string, unknown>, pkg = { mcpName: "io.github.acme/pets", version: "1.2.0" }) =>
    serverJsonViolations({ ...valid, ...doc }, pkg).join("\n");
  assert.match(problems({ name: "no-slash" }), "/name must match pattern");
  assert.match(problems({ description: "x".repeat(101) }), "/description must NOT have more than 100 characters");
  assert.match(problems({ description: "" }), "/description must NOT have fewer than 1 characters");
  assert.match(
    problems({
      packages: [{ registryType: "npm", identifier: "pets-mcp", version: "latest", transport: { type: "stdio" } }],
    }),
    "/packages/0/version must NOT be valid",
  );
  assert.match(
    problems({
      packages: [
        {
          registryType: "mcpb",
          identifier: "https://github.com/a/b/releases/download/v1/x.mcpb",
          fileSha256: "XYZ",
          transport: { type: "stdio" },
        },
      ],
    }),
    "/packages/0/fileSha256 must match pattern",
  );
  assert.match(problems({ websiteUrl: "not a url" }), "/websiteUrl must match format");
  assert.match(
    problems({}, { mcpName: "io.github.other/pets", version: "1.2.0" }),
    "differs from package.json's mcpName",
  );
  assert.match(
    problems({}, { mcpName: "io.github.acme/pets", version: "1.3.0" }),
    "differs from package.json's version",
  );
});

test("package.json is publishable: valid scoped name, bin, files, engines, prepublishOnly, license, repository", async () => {
  const out = await files("specs/petstore.yaml", {
    packageName: "@acme/pets-mcp",
    repository: "https://github.com/acme/pets-mcp",
  });
  const pkg = JSON.parse(out.get("package.json")!) as Record<string, any>;
  assert.is(pkg.name, "@acme/pets-mcp");
  assert.equal(pkg.bin, { "pets-mcp": "dist/index.js" });
  assert.equal(pkg.files, ["dist", "data", "README.md", ".env.example", "server.json"]);
  assert.is(pkg.type, "module");
  assert.is(pkg.engines.node, ">=20.19");
  assert.is(pkg.scripts.prepublishOnly, "node scripts/prepublish.mjs && npm run build");
  assert.is(pkg.license, "MIT");
  assert.equal(pkg.repository, { type: "git", url: "git+https://github.com/acme/pets-mcp.git" });
  assert.is(pkg.mcpName, "io.github.acme/pets-mcp");
  assert.not.ok(pkg.private);
  const server = JSON.parse(out.get("server.json")!) as Record<string, any>;
  assert.equal(server.repository, { url: "https://github.com/acme/pets-mcp", source: "github" });
  assert.equal(serverJsonViolations(server, pkg), []);
  const readme = out.get("README.md")!;
  assert.match(readme, /claude mcp add pets-mcp -- npx -y @acme\/pets-mcp/);
  assert.match(readme, /"command": "npx",\s+"args": \["-y", "@acme\/pets-mcp"\]/);
  assert.match(readme, /\.cursor\/mcp\.json/);
  assert.match(readme, /\.vscode\/mcp\.json[\s\S]*"type": "stdio"/);
});

test("--license: the package's license instead of the spec's; a license that is not SPDX is an error (MG202)", async () => {
  const licensed = await generate({ spec: join(root, "specs/petstore.yaml"), license: "Apache-2.0", planOnly: true });
  assert.is(licensed.plan.license, "Apache-2.0");
  const fromSpec = await generate({ spec: join(root, "specs/petstore.yaml"), planOnly: true });
  assert.is(fromSpec.plan.license, "MIT", "the spec's info.license by default");
  try {
    await generate({ spec: join(root, "specs/petstore.yaml"), license: "my own terms", planOnly: true });
    assert.unreachable("an invalid license must stop the generation");
  } catch (error) {
    const diagnostics = (error as { diagnostics?: Array<{ code: string; message: string }> }).diagnostics ?? [];
    assert.ok(
      diagnostics.some(
        (d) => d.code === "MG202" && /--license "my own terms" is not an SPDX license expression/.test(d.message),
      ),
      JSON.stringify(diagnostics),
    );
  }
});

test("the Dockerfile pins its base image, runs as non-root in HTTP mode and copies only built files", async () => {
  const out = await files("specs/petstore.yaml");
  const lines = out
    .get("Dockerfile")!
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"));
  const froms = lines.filter((l) => l.startsWith("FROM "));
  assert.is(froms.length, 2);
  for (const from of froms)
    assert.match(from, /^FROM node:\d+\.\d+\.\d+-[a-z0-9.-]+( AS \w+)?$/, "pinned to an exact Node version");
  const runStage = lines.slice(lines.lastIndexOf(froms[1]!));
  const user = runStage.findIndex((l) => l.startsWith("USER "));
  assert.ok(user > 0 && !/USER (root|0)\b/.test(runStage[user]!), "a non-root USER in the final stage");
  const cmd = runStage.findIndex((l) => l.startsWith("CMD "));
  assert.ok(cmd > user, "USER comes before CMD");
  assert.match(runStage[cmd]!, /"--http"/);
  const copies = runStage.filter((l) => l.startsWith("COPY "));
  assert.ok(copies.length > 0);
  for (const copy of copies)
    assert.match(copy, /^COPY --from=build --chown=node:node \/app\/(dist|data|node_modules|package\.json) /, copy);
  assert.match(out.get(".dockerignore")!, /^\.env$/m);
});

test("deploy/: compose.yaml runs Redis, three instances sharing it (no credential values) and nginx over them", async () => {
  const { parse } = await import("yaml");
  const out = await files("specs/fixtures/auth-schemes.yaml", { features: ["redis"] });
  const compose = parse(out.get("deploy/compose.yaml")!) as {
    services: Record<
      string,
      { image?: string; build?: string; command?: string[]; environment?: Record<string, string> }
    >;
  };
  assert.equal(Object.keys(compose.services).sort(), ["mcp-1", "mcp-2", "mcp-3", "nginx", "redis"]);
  assert.match(compose.services.redis!.image!, /^redis:\d+\.\d+/);
  assert.match(compose.services.nginx!.image!, /^nginx:\d+\.\d+/);
  for (const name of ["mcp-1", "mcp-2", "mcp-3"]) {
    const instance = compose.services[name]!;
    assert.is(instance.build, "..");
    assert.ok(instance.command!.includes("--http") && instance.command!.includes("--sessions"));
    assert.is(instance.environment!.MCP_STATE_URL, "redis://redis:6379/0");
    // Credentials come from the host's environment, never from the file.
    for (const [key, value] of Object.entries(instance.environment!))
      if (key !== "MCP_STATE_URL") assert.match(value, /^\$/, key);
    assert.ok("BEARER_AUTH" in instance.environment!);
  }
  const nginx = out.get("deploy/nginx.conf")!;
  for (const name of ["mcp-1", "mcp-2", "mcp-3"]) assert.match(nginx, new RegExp(`server ${name}:3000`));
  assert.match(nginx, /proxy_buffering off;/);
  const directives = nginx
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n");
  assert.not.match(directives, /non_idempotent|ip_hash|sticky|keepalive/);
});

test("deploy/ and the README's Redis setup only with feature redis: their instances start with --sessions --state", async () => {
  const plain = await files("specs/fixtures/auth-schemes.yaml");
  assert.equal(
    [...plain.keys()].filter((path) => path.startsWith("deploy/")),
    [],
  );
  assert.not.match(plain.get("README.md")!, /--state redis:\/\/redis-host|deploy\/compose\.yaml/);
  assert.match(plain.get("README.md")!, /mcp-gen --with redis/);
  const shared = await files("specs/fixtures/auth-schemes.yaml", { features: ["redis"] });
  assert.match(shared.get("README.md")!, /`deploy\/compose\.yaml` runs this with Docker Compose/);
});

test("health: the Dockerfile's HEALTHCHECK and compose's healthcheck ask /readyz (exit 0 on 200, 1 on 503 or no answer); nginx serves /healthz and passes /readyz on", async () => {
  const { parse } = await import("yaml");
  const { execFile } = await import("node:child_process");
  const { createServer } = await import("node:http");
  const out = await files("specs/fixtures/auth-schemes.yaml", { features: ["redis"] });
  const dockerfile = out.get("Dockerfile")!.replace(/\\\n\s*/g, "");
  const check = JSON.parse(/^HEALTHCHECK .*?CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? "null") as string[];
  assert.equal(check.slice(0, 2), ["node", "-e"]);
  const compose = parse(out.get("deploy/compose.yaml")!) as {
    services: Record<string, { healthcheck?: { test: string[] }; depends_on?: Record<string, { condition: string }> }>;
  };
  assert.equal(compose.services["mcp-1"]!.healthcheck!.test, ["CMD", ...check]);
  assert.equal(compose.services.nginx!.depends_on!["mcp-2"], { condition: "service_healthy" });
  const nginx = out.get("deploy/nginx.conf")!;
  assert.match(nginx, /location = \/healthz \{[^}]*return 200/);
  assert.match(nginx, /location = \/readyz \{[^}]*proxy_pass http:\/\/mcp_instances;[^}]*http_503/);
  // The check itself, run against a stand-in server on a free port.
  let status = 200;
  const asked: string[] = [];
  const server = createServer((req, res) => (asked.push(req.url ?? ""), res.writeHead(status).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const script = check[2]!.replace("127.0.0.1:3000", `127.0.0.1:${port}`);
  const exitCode = () =>
    new Promise<number>((resolve) =>
      execFile(process.execPath, ["-e", script], (error) => resolve(error ? (error.code as number) : 0)),
    );
  try {
    assert.is(await exitCode(), 0);
    status = 503;
    assert.is(await exitCode(), 1);
    assert.equal(asked, ["/readyz", "/readyz"]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("publishing helpers: repository forms, registry names, SPDX licenses", () => {
  assert.equal(parseRepository("git+https://github.com/a/b.git"), { url: "https://github.com/a/b", source: "github" });
  assert.equal(parseRepository("gitlab:a/b"), { url: "https://gitlab.com/a/b", source: "gitlab" });
  assert.is(parseRepository("not a url"), undefined);
  assert.is(registryName("x-mcp", "@scope/x-mcp", undefined), "io.github.scope/x-mcp");
  assert.is(registryName("x-mcp", "x-mcp", undefined, "com.example/x"), "com.example/x");
  assert.is(npmLicense("Apache 2.0"), "Apache-2.0");
  assert.is(npmLicense("All rights reserved, see the website"), undefined);
});

test("manifest.json of the MCP Bundle passes mcpb's 0.3 schema; each variable is a setting, credentials sensitive and without defaults", async () => {
  const schemaFile = createRequire(import.meta.url).resolve("@anthropic-ai/mcpb/mcpb-manifest-v0.3.schema.json");
  const validate = new Ajv({ strict: false, allErrors: true }).compile(
    JSON.parse(readFileSync(schemaFile, "utf8")) as object,
  );
  const out = await files("specs/fixtures/auth-schemes.yaml", { mcpName: "io.github.alice/auth-zoo" });
  const manifest = JSON.parse(out.get("manifest.json")!) as {
    manifest_version: string;
    author: { name: string };
    version: string;
    server: { mcp_config: { env: Record<string, string> } };
    user_config: Record<string, { sensitive?: boolean; default?: string; required: boolean }>;
  };
  assert.ok(validate(manifest), JSON.stringify(validate.errors));
  assert.is(manifest.manifest_version, "0.3");
  assert.is(manifest.author.name, "alice");
  assert.is(manifest.version, JSON.parse(out.get("package.json")!).version);
  const server = JSON.parse(out.get("server.json")!) as {
    packages: Array<{ environmentVariables: Array<{ name: string; isSecret: boolean; isRequired: boolean }> }>;
  };
  const variables = server.packages[0]!.environmentVariables;
  assert.equal(
    Object.keys(manifest.user_config),
    variables.map((v) => v.name),
  );
  for (const v of variables) {
    assert.is(manifest.server.mcp_config.env[v.name], `\${user_config.${v.name}}`);
    assert.is(manifest.user_config[v.name]!.sensitive === true, v.isSecret, v.name);
    assert.is(manifest.user_config[v.name]!.required, v.isRequired, v.name);
    if (v.isSecret) assert.is(manifest.user_config[v.name]!.default, undefined, v.name);
  }
  assert.ok(
    variables.some((v) => v.isSecret),
    "the fixture has credentials",
  );
  const pkg = JSON.parse(out.get("package.json")!) as { scripts: Record<string, string> };
  assert.is(pkg.scripts.bundle, "npm run build && node scripts/bundle.mjs");
  assert.ok(out.has("scripts/bundle.mjs"));
  // npm run build: tsc, then esbuild joins dist/ (scripts/bundle-dist.mjs), with esbuild a dev dependency.
  assert.is(pkg.scripts.build, "tsc -p tsconfig.json && node scripts/bundle-dist.mjs");
  assert.ok(out.has("scripts/bundle-dist.mjs"));
  assert.match(out.get("Dockerfile") ?? "", /COPY scripts\/bundle-dist\.mjs/);
});

test("npm run build precompiles the server.json validator, and it is the one used", () => {
  const precompiled = createRequire(new URL("../../", import.meta.url))(`./${PRECOMPILED_SERVER_VALIDATOR}`) as (
    server: unknown,
  ) => boolean;
  assert.is(serverJsonValidator(), precompiled);
  // The same findings as a validator compiled now (the build's code is not stale).
  const fresh = compileServerJsonValidator().validate;
  const invalid = {
    name: "no-slash",
    description: "",
    version: "latest",
    websiteUrl: "not a uri",
    packages: [{ registryType: "npm", transport: { type: "carrier-pigeon" } }],
  };
  assert.is(precompiled(invalid), false);
  assert.is(fresh(invalid), false);
  const errors = (precompiled as unknown as { errors: unknown[] }).errors;
  assert.ok(errors.length >= 4, "several violations, a format one among them");
  assert.ok(errors.some((error) => (error as { keyword: string }).keyword === "format"));
  assert.equal(errors, fresh.errors);
});

test("the README of an API with an authorization code flow says how to register the app: callback URL, the operations' scopes, GitHub, Google and any OpenID provider", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-sign-in-readme-"));
  const spec = join(dir, "spec.yaml");
  writeFileSync(
    spec,
    [
      "openapi: 3.0.3",
      "info: { title: Notes, version: 1.0.0 }",
      "servers: [{ url: 'https://api.example.com' }]",
      "components:",
      "  securitySchemes:",
      "    notes_oauth:",
      "      type: oauth2",
      "      flows:",
      "        authorizationCode:",
      "          authorizationUrl: https://auth.example.com/authorize",
      "          tokenUrl: https://auth.example.com/token",
      "          scopes: { 'notes:read': Read, 'notes:write': Write, unused: Never asked }",
      "paths:",
      "  /notes:",
      "    get:",
      "      operationId: listNotes",
      "      security: [{ notes_oauth: ['notes:read'] }]",
      "      responses: { '200': { description: ok } }",
      "    post:",
      "      operationId: addNote",
      "      security: [{ notes_oauth: ['notes:write', 'notes:read'] }]",
      "      responses: { '201': { description: made } }",
    ].join("\n"),
  );
  const result = await generate({ spec }).finally(() => rmSync(dir, { recursive: true, force: true }));
  const out = new Map(result.files.map((f) => [f.path, f.content]));
  const readme = out.get("README.md")!;
  assert.match(readme, "### Each user signs in to the upstream");
  assert.match(readme, "`<public URL>/oauth/upstream/callback`");
  assert.match(readme, "allowed the scopes `notes:read`, `notes:write` (those the operations ask for)");
  assert.not.match(readme, "`unused`");
  assert.match(readme, "`NOTES_OAUTH_CLIENT_ID`");
  assert.match(readme, "https://github.com/login/oauth/authorize");
  assert.match(readme, "`NOTES_OAUTH_AUTHORIZE_PARAMS` parameters to the authorization request (Google:");
  assert.match(readme, "`access_type=offline&prompt=consent`");
  assert.match(readme, "Any OpenID provider");
  assert.match(readme, "`<public URL>/oauth/upstream/confirm`");
  const env = out.get(".env.example")!;
  assert.match(env, "NOTES_OAUTH_CLIENT_ID");
  assert.match(env, "MCP_SIGN_IN_OIDC_CLIENT_ID");
});

test.run();
