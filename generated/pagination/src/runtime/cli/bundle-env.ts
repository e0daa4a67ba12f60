// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Environment left behind by an MCP Bundle host. A bundle's manifest maps each setting to
 * `${user_config.NAME}`; hosts have been seen to pass that text itself, unsubstituted, for an
 * optional setting the user left empty. Such a value is no setting at all: it must not become a
 * credential sent upstream or a base URL.
 */

/** An unsubstituted MCP Bundle placeholder (`${user_config.API_TOKEN}`). */
const PLACEHOLDER = /^\$\{user_config\.[^}]*\}$/;

/** Removes unsubstituted bundle placeholders from `env` (in place); returns the names removed. */
export function dropBundlePlaceholders(env: NodeJS.ProcessEnv): string[] {
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && PLACEHOLDER.test(value.trim())) {
      delete env[name];
      dropped.push(name);
    }
  }
  return dropped.sort();
}
