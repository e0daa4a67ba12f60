/**
 * `mcp-gen workspace publish`: publishes the servers whose version is not on the registry yet (a
 * build bumps the version of a server whose tools changed), each with `npm publish` in its folder,
 * dependencies first (a server that depends on another server of the workspace is published after
 * it; the others in file order). `--dry-run` runs `npm publish --dry-run` and changes nothing.
 * A server whose only publish-time script is the generated `prepublishOnly: npm run build` and whose
 * build is up to date is published without running it again (`--ignore-scripts`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { needsCompile } from "./build.js";
import { NPM, runProcess } from "./run-process.js";
import type { Workspace, WorkspaceServer } from "./workspace-file.js";

/** Options of {@link publishWorkspace}. */
export interface PublishOptions {
  dryRun?: boolean;
  /** Registry URL (default: npm's configuration). */
  registry?: string;
  tag?: string;
  access?: "public" | "restricted";
  log?: (line: string) => void;
}

/** What happened to one server. */
export interface PublishEntry {
  server: WorkspaceServer;
  name: string;
  version: string;
  outcome: "published" | "dry-run" | "already published" | "failed";
  output?: string;
}

/** A cycle among the workspace's servers: they cannot be published dependencies first. */
export class PublishOrderError extends Error {}

interface PackageFacts {
  name: string;
  version: string;
  dependsOn: string[];
  /** True when the only publish-time script is the generated `prepublishOnly: npm run build`. */
  onlyBuildsBeforePublish: boolean;
}

/** npm's scripts that run on `npm publish`. */
const PUBLISH_SCRIPTS = ["prepublish", "prepare", "prepublishOnly", "prepack", "postpack", "publish", "postpublish"];

function packageFacts(server: WorkspaceServer): PackageFacts {
  const pkg = JSON.parse(readFileSync(join(server.out, "package.json"), "utf8")) as Record<string, unknown>;
  const deps = ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
    Object.keys((pkg[field] as Record<string, string> | undefined) ?? {}),
  );
  const scripts = (pkg.scripts as Record<string, string> | undefined) ?? {};
  const present = PUBLISH_SCRIPTS.filter((name) => scripts[name] !== undefined);
  return {
    name: String(pkg.name),
    version: String(pkg.version),
    dependsOn: deps,
    onlyBuildsBeforePublish: present.length === 1 && scripts.prepublishOnly === "npm run build",
  };
}

/**
 * The order to publish in: every server after the servers of the workspace it depends on, otherwise
 * in file order (a stable topological sort). Throws {@link PublishOrderError} on a cycle.
 */
export function publishOrder<T extends { name: string; dependsOn: string[] }>(packages: T[]): T[] {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const order: T[] = [];
  const visit = (p: T, path: string[]): void => {
    if (done.has(p.name)) return;
    if (visiting.has(p.name))
      throw new PublishOrderError(`the servers depend on each other in a cycle: ${[...path, p.name].join(" → ")}`);
    visiting.add(p.name);
    for (const dep of p.dependsOn) {
      const inside = byName.get(dep);
      if (inside) visit(inside, [...path, p.name]);
    }
    visiting.delete(p.name);
    done.add(p.name);
    order.push(p);
  };
  for (const p of packages) visit(p, []);
  return order;
}

/** True when `name@version` is on the registry; undefined when npm could not tell (its output says why). */
async function isPublished(
  server: WorkspaceServer,
  name: string,
  version: string,
  registry: string | undefined,
): Promise<{ published?: boolean; output: string }> {
  const result = await runProcess(
    NPM,
    ["view", `${name}@${version}`, "version", "--json", ...(registry ? ["--registry", registry] : [])],
    { cwd: server.out, timeoutMs: 120_000 },
  );
  if (result.code === 0) return { published: result.output.includes(JSON.stringify(version)), output: result.output };
  if (/E404|404 Not Found|is not in this registry/i.test(result.output))
    return { published: false, output: result.output };
  return { output: result.output };
}

/** Publishes (or dry-runs) the servers not yet on the registry, dependencies first. */
export async function publishWorkspace(workspace: Workspace, options: PublishOptions = {}): Promise<PublishEntry[]> {
  const log = options.log ?? (() => undefined);
  const packages = workspace.servers.map((server) => ({ server, ...packageFacts(server) }));
  const entries: PublishEntry[] = [];
  for (const pkg of publishOrder(packages)) {
    const { server, name, version } = pkg;
    const known = await isPublished(server, name, version, options.registry);
    if (known.published === undefined) {
      entries.push({ server, name, version, outcome: "failed", output: known.output });
      log(`${name}@${version}: FAILED to ask the registry: ${known.output.trim().split("\n").slice(-2).join(" / ")}`);
      continue;
    }
    if (known.published) {
      entries.push({ server, name, version, outcome: "already published" });
      log(`${name}@${version}: already published`);
      continue;
    }
    // The generated prepublishOnly only builds: when the build is up to date it need not run again.
    const skipBuild = pkg.onlyBuildsBeforePublish && !(await needsCompile(server.out));
    const args = [
      "publish",
      ...(skipBuild ? ["--ignore-scripts"] : []),
      ...(options.dryRun ? ["--dry-run"] : []),
      ...(options.registry ? ["--registry", options.registry] : []),
      ...(options.tag ? ["--tag", options.tag] : []),
      ...(options.access ? ["--access", options.access] : []),
    ];
    const result = await runProcess(NPM, args, { cwd: server.out, timeoutMs: 900_000 });
    const outcome = result.code !== 0 ? "failed" : options.dryRun ? "dry-run" : "published";
    entries.push({ server, name, version, outcome, ...(result.code !== 0 ? { output: result.output } : {}) });
    log(
      `${name}@${version}: ${outcome === "failed" ? `publish FAILED: ${result.output.trim().split("\n").slice(-3).join(" / ")}` : outcome === "dry-run" ? "would be published (--dry-run)" : "published"}`,
    );
  }
  return entries;
}
