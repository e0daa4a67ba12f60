import type { ProjectPlan } from "../../plan/plan-types.js";
import { configVariables } from "./config-variables.js";
import type { EmittedFile } from "../emitted-file.js";
import { renderTemplate } from "./templates.js";

/** The server.json schema this generator writes and checks against (vendored in profiles/registry/). */
export const SERVER_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The registry allows at most 100 characters of description. */
function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= 100) return flat;
  const cut = flat.slice(0, 99);
  const space = cut.lastIndexOf(" ");
  return `${(space > 60 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

/**
 * `server.json` for the MCP Registry: the npm package, run over stdio, with the environment variables
 * the server reads (names and descriptions only, never values).
 */
export function serverJson(plan: ProjectPlan): EmittedFile {
  const server = {
    $schema: SERVER_SCHEMA_URL,
    name: plan.mcpName,
    description: shortDescription(plan.description),
    version: plan.version,
    ...(plan.repository ? { repository: { url: plan.repository.url, source: plan.repository.source } } : {}),
    packages: [
      {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: plan.packageName,
        version: plan.version,
        transport: { type: "stdio" },
        environmentVariables: plan.env.map((v) => ({
          name: v.name,
          description: v.description,
          isRequired: v.required,
          isSecret: v.secret ?? false,
          format: "string",
        })),
      },
    ],
  };
  return { path: "server.json", content: JSON.stringify(server, null, 2) + "\n" };
}

/** The MCP Bundle manifest version written (schemas of @anthropic-ai/mcpb, `mcpb-manifest-v0.3.schema.json`). */
export const MCPB_MANIFEST_VERSION = "0.3";

/** The bundle's author: the owner named in the registry name (`io.github.alice/weather` → alice). */
function bundleAuthor(plan: ProjectPlan): string {
  const namespace = plan.mcpName.split("/")[0] ?? "";
  return namespace.split(".").at(-1) || plan.packageName;
}

/**
 * `manifest.json` of the MCP Bundle (`npm run bundle`, scripts/bundle.mjs): the built server run
 * with Node, and one `user_config` entry per environment variable, credentials marked sensitive,
 * each passed to the server as that variable. Settings only: never a value of a credential.
 */
export function mcpbManifest(plan: ProjectPlan): EmittedFile {
  const variables = configVariables(plan);
  const manifest = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: plan.packageName,
    display_name: plan.title,
    version: plan.version,
    description: shortDescription(plan.description),
    ...(shortDescription(plan.description) !== plan.description ? { long_description: plan.description } : {}),
    author: { name: bundleAuthor(plan) },
    ...(plan.repository ? { repository: { type: "git", url: plan.repository.url } } : {}),
    server: {
      type: "node",
      entry_point: "dist/index.js",
      mcp_config: {
        command: "node",
        args: ["${__dirname}/dist/index.js"],
        env: Object.fromEntries(variables.map((v) => [v.name, `\${user_config.${v.name}}`])),
      },
    },
    user_config: Object.fromEntries(
      variables.map((v) => [
        v.name,
        {
          type: "string",
          title: v.name,
          description: v.description ?? v.name,
          required: v.required,
          ...(v.secret ? { sensitive: true } : v.example !== undefined ? { default: v.example } : {}),
        },
      ]),
    ),
    compatibility: { platforms: ["darwin", "linux", "win32"], runtimes: { node: ">=20.19" } },
    keywords: ["mcp", "openapi"],
    ...(plan.license ? { license: plan.license } : {}),
  };
  return { path: "manifest.json", content: JSON.stringify(manifest, null, 2) + "\n" };
}

/**
 * Dockerfile (multi-stage, pinned base image, non-root, HTTP mode) and its .dockerignore, plus, with
 * feature `redis`, an example deployment of several instances sharing it (deploy/: compose.yaml with
 * nginx and Redis, nginx.conf): its instances start with `--sessions --state`, which a server
 * without the feature refuses.
 */
export function dockerFiles(plan: ProjectPlan): EmittedFile[] {
  return [
    { path: "Dockerfile", content: renderTemplate("Dockerfile.hbs", plan) },
    ...(plan.features.includes("redis")
      ? [
          { path: "deploy/compose.yaml", content: renderTemplate("compose.yaml.hbs", plan) },
          { path: "deploy/nginx.conf", content: renderTemplate("nginx.conf.hbs", plan) },
        ]
      : []),
    { path: ".dockerignore", content: "node_modules\ndist\n.env\n.env.*\n!.env.example\n.git\n" },
  ];
}
