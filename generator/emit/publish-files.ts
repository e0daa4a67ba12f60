import type { ProjectPlan } from "../plan/types.js";
import type { EmittedFile } from "./project-files.js";
import { renderTemplate } from "./templates.js";

/** The server.json schema version this generator writes (read from modelcontextprotocol/registry). */
export const SERVER_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

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

/** Dockerfile (multi-stage, pinned base image, non-root, HTTP mode) and its .dockerignore. */
export function dockerFiles(plan: ProjectPlan): EmittedFile[] {
  return [
    { path: "Dockerfile", content: renderTemplate("Dockerfile.hbs", plan) },
    { path: ".dockerignore", content: "node_modules\ndist\n.env\n.env.*\n!.env.example\n.git\n" },
  ];
}
