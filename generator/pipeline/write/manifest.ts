import { createHash } from "node:crypto";
import type { EmittedFile } from "../emit/emitted-file.js";
import { MANIFEST_PATH, RUNTIME_DIR, treeSha256, type Manifest, type OverlayRecord } from "../../shared/state-files.js";

/** sha256 of a file's content, hex. */
export function sha256(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

const fileHashes = new WeakMap<EmittedFile, { content: string; sha256: string }>();

/**
 * sha256 of an emitted file's content, remembered for that file (and that content), so that the
 * pipeline can hash the files it has while the emit worker prints the rest (generate.ts).
 */
export function fileSha256(file: EmittedFile): string {
  const known = fileHashes.get(file);
  if (known?.content === file.content) return known.sha256;
  const hash = sha256(file.content);
  fileHashes.set(file, { content: file.content, sha256: hash });
  return hash;
}

/**
 * Builds the manifest for a set of emitted files (which must not contain the manifest): a hash per
 * generated file, and one for the vendored runtime as a whole.
 */
export function buildManifest(
  files: EmittedFile[],
  settings: {
    packageName: string;
    packageVersion: string;
    repository?: string;
    mcpName?: string;
    surface?: Manifest["surface"];
    resultBudget?: number;
    features?: string[];
    targets?: string[];
    overlays?: OverlayRecord[];
    provenance?: Pick<Manifest, "mcpGenVersion" | "runtimeVersion" | "specSha256">;
  },
): Manifest {
  const owned = files.filter((f) => !f.once).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const runtime = owned.filter((f) => f.path.startsWith(RUNTIME_DIR));
  const hashes: Record<string, string> = {};
  for (const file of owned) if (!file.path.startsWith(RUNTIME_DIR)) hashes[file.path] = fileSha256(file);
  const once = files
    .filter((f) => f.once)
    .map((f) => f.path)
    .sort();
  const { packageName, packageVersion, repository, mcpName, surface, resultBudget, features, targets } = settings;
  const { overlays, provenance } = settings;
  return {
    manifestVersion: 1,
    packageName,
    packageVersion,
    ...provenance,
    ...(repository ? { repository } : {}),
    ...(mcpName ? { mcpName } : {}),
    ...(surface && surface !== "auto" ? { surface } : {}),
    ...(resultBudget !== undefined ? { resultBudget } : {}),
    ...(features && features.length > 0 ? { features: [...features].sort() } : {}),
    // Node alone, the default, is not written: manifests of projects without a target stay as they were.
    ...(targets && targets.join() !== "node" ? { targets: [...targets] } : {}),
    ...(overlays && overlays.length > 0 ? { overlays } : {}),
    ...(runtime.length > 0 ? { runtimeSha256: treeSha256(runtime.map((f) => [f.path, fileSha256(f)] as const)) } : {}),
    files: hashes,
    once,
  };
}

/** The manifest as an emitted file (stable JSON, trailing newline). */
export function manifestFile(manifest: Manifest): EmittedFile {
  return { path: MANIFEST_PATH, content: JSON.stringify(manifest, null, 2) + "\n" };
}
