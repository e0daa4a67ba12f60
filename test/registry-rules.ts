/**
 * The MCP Registry's rules for server.json, checked in code (the schema itself is not vendored).
 * Source: github.com/modelcontextprotocol/registry, docs/reference/server-json/server.schema.json
 * ($id https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json): ServerDetail =
 * Server (name, description, version required; repository {url, source}) + $schema, packages, remotes,
 * _meta; Package has additionalProperties: false. Returns a list of violations (empty when valid).
 */
const PACKAGE_KEYS = new Set(["registryType", "registryBaseUrl", "identifier", "version", "fileSha256", "runtimeHint", "transport", "runtimeArguments", "packageArguments", "environmentVariables"]);
const INPUT_KEYS = new Set(["description", "isRequired", "format", "value", "isSecret", "default", "placeholder", "choices", "variables", "name"]);
const FORMATS = new Set(["string", "number", "boolean", "filepath"]);
const RANGE = /^[\^~><=]|(\.x|\.\*)$|^\*$|^latest$/;

const isUri = (value: unknown) => {
  try {
    return typeof value === "string" && new URL(value).protocol.length > 0;
  } catch {
    return false;
  }
};

export function registryViolations(doc: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const str = (v: unknown) => typeof v === "string";
  if (!isUri(doc.$schema)) errors.push("$schema must be a URI");
  const name = doc.name;
  if (!str(name) || !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name as string) || (name as string).length < 3 || (name as string).length > 200) errors.push(`name ${JSON.stringify(name)} breaks the reverse-DNS rule`);
  const description = doc.description;
  if (!str(description) || (description as string).length < 1 || (description as string).length > 100) errors.push("description must be 1..100 characters");
  if (!str(doc.version) || (doc.version as string).length > 255 || RANGE.test(doc.version as string)) errors.push("version must be a specific version");
  if (doc.repository !== undefined) {
    const repo = doc.repository as Record<string, unknown>;
    if (!isUri(repo.url) || !str(repo.source)) errors.push("repository needs url (URI) and source");
  }
  if (doc.websiteUrl !== undefined && !isUri(doc.websiteUrl)) errors.push("websiteUrl must be a URI");
  if (doc.packages !== undefined && !Array.isArray(doc.packages)) errors.push("packages must be an array");
  for (const [i, pkg] of ((doc.packages as Array<Record<string, unknown>>) ?? []).entries()) {
    for (const key of Object.keys(pkg)) if (!PACKAGE_KEYS.has(key)) errors.push(`packages[${i}].${key} is not allowed`);
    for (const key of ["registryType", "identifier", "version"]) if (!str(pkg[key])) errors.push(`packages[${i}].${key} is required`);
    if (pkg.version === "latest" || (str(pkg.version) && (pkg.version as string).length < 1)) errors.push(`packages[${i}].version must not be latest`);
    if (pkg.registryBaseUrl !== undefined && !isUri(pkg.registryBaseUrl)) errors.push(`packages[${i}].registryBaseUrl must be a URI`);
    const transport = pkg.transport as Record<string, unknown> | undefined;
    if (!transport || !["stdio", "streamable-http", "sse"].includes(transport.type as string)) errors.push(`packages[${i}].transport.type must be stdio, streamable-http or sse`);
    else if (transport.type !== "stdio" && !str(transport.url)) errors.push(`packages[${i}].transport.url is required for ${String(transport.type)}`);
    for (const [j, env] of ((pkg.environmentVariables as Array<Record<string, unknown>>) ?? []).entries()) {
      if (!str(env.name)) errors.push(`packages[${i}].environmentVariables[${j}].name is required`);
      for (const key of Object.keys(env)) if (!INPUT_KEYS.has(key)) errors.push(`packages[${i}].environmentVariables[${j}].${key} is unknown`);
      if (env.format !== undefined && !FORMATS.has(env.format as string)) errors.push(`packages[${i}].environmentVariables[${j}].format is invalid`);
      for (const key of ["isRequired", "isSecret"]) if (env[key] !== undefined && typeof env[key] !== "boolean") errors.push(`packages[${i}].environmentVariables[${j}].${key} must be boolean`);
    }
  }
  return errors;
}
