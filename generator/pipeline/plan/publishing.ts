/**
 * Publishing facts of the generated package: repository, MCP Registry name, license. Rules come from
 * npm (package.json) and the MCP Registry's server.json schema
 * (2025-12-11, vendored as profiles/registry/server.schema.json).
 */

/** The registry's rule for server names: reverse-DNS namespace, one slash, a name. */
export const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** A repository as package.json and server.json describe it. */
export interface RepositoryPlan {
  /** Browsable URL, `https://github.com/owner/repo`. */
  url: string;
  /** Hosting service (`github`, `gitlab`, …), from the host name. */
  source: string;
}

/** `git+https://github.com/a/b.git`, `github:a/b`, `https://gitlab.com/a/b` → `{ url, source }`; undefined if not a URL. */
export function parseRepository(value: string): RepositoryPlan | undefined {
  const shorthand = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(value);
  const raw = shorthand
    ? `https://${shorthand[1]}.${shorthand[1] === "bitbucket" ? "org" : "com"}/${shorthand[2]}`
    : value.replace(/^git\+/, "");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const path = url.pathname.replace(/\.git$/, "").replace(/\/+$/, "");
  const source = url.hostname.replace(/^www\./, "").split(".")[0] ?? url.hostname;
  return { url: `https://${url.hostname}${path}`, source };
}

/** The owner of a registry name mcp-gen cannot derive (the generated prepublish script warns about it). */
export const PLACEHOLDER_OWNER = "your-github-user";

/**
 * The server's name in the MCP Registry (also package.json `mcpName`, which the registry checks to
 * verify npm ownership). Given explicitly, used as is; else `io.github.<owner>/<bin>` for a GitHub
 * repository, `io.github.<scope>/<bin>` for a scoped package, and a placeholder owner otherwise
 * (the README says to pass --mcp-name before publishing).
 */
export function registryName(
  binName: string,
  packageName: string,
  repository: RepositoryPlan | undefined,
  explicit?: string,
): string {
  if (explicit) return explicit;
  const name = binName.replace(/[^a-zA-Z0-9._-]/g, "-");
  const github =
    repository?.source === "github" ? /^https:\/\/github\.com\/([\w.-]+)\//.exec(repository.url + "/")?.[1] : undefined;
  const scope = /^@([^/]+)\//.exec(packageName)?.[1];
  const owner = (github ?? scope ?? PLACEHOLDER_OWNER).replace(/[^a-zA-Z0-9.-]/g, "-");
  return `io.github.${owner}/${name}`;
}

/** The license as npm wants it: an SPDX-like identifier (`MIT`, `Apache-2.0`); other text is dropped. */
export function npmLicense(license: string | undefined): string | undefined {
  if (!license) return undefined;
  const normalized = license
    .trim()
    .replace(/^Apache (2\.0)$/i, "Apache-2.0")
    .replace(/^Apache License,? Version 2\.0$/i, "Apache-2.0");
  return /^[A-Za-z0-9.+-]+( (OR|AND) [A-Za-z0-9.+-]+)*$/.test(normalized) ? normalized : undefined;
}
