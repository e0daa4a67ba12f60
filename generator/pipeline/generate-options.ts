import { resolve } from "node:path";
import type { OperationFilter } from "../shared/contract.js";
import { isUrl } from "./load/read-document.js";
import type { Manifest } from "../shared/state-files.js";
import type { AuthOverride } from "./plan/credentials.js";
import type { ToolLock } from "./plan/tool-lock.js";

/** Everything `generate` accepts. */
export interface GenerateOptions {
  /** Path (or URL, with `allowRemote`) of the OpenAPI document. */
  spec: string;
  /** Output folder; when absent nothing is written (the files are returned). */
  outDir?: string;
  /** npm package name of the generated server (default: the previous generation's, else from info.title). */
  packageName?: string;
  /** Source repository URL for package.json and server.json (default: the previous generation's). */
  repository?: string;
  /** MCP Registry name (default: the previous generation's, else derived; see plan/publishing.ts). */
  mcpName?: string;
  /** Overwrite hand-edited generated files; write into a non-empty folder that has no manifest. */
  force?: boolean;
  /** Allow the spec and its `$ref`s to come from the network. */
  allowRemote?: boolean;
  /** The folder file `$ref`s may read from (`--ref-root`); default: the spec's own folder. */
  refRoot?: string;
  /** Authentication for operations without security requirements (`--auth`). */
  auth?: AuthOverride;
  /** Prefix of credential variable names (`--env-prefix`). */
  envPrefix?: string;
  /**
   * Apply the diff's suggested semver bump to the previous generation's package version (default
   * true). When false, an existing output keeps its version.
   */
  bump?: boolean;
  /** Compare with `outDir` instead of writing it (see `GenerateResult.check`). */
  check?: boolean;
  /** Tool names to keep, instead of the output folder's lock (used by `mcp-gen diff`). */
  toolLock?: ToolLock;
  /** Ignore the tool-name lock of the previous generation: every tool gets its name from the spec again. */
  resetToolNames?: boolean;
  /** Emit tool output schemas (default true); `false` is the CLI's `--no-output-schema`. */
  outputSchemas?: boolean;
  /** Stop after the plan stage: nothing emitted, formatted or written (`mcp-gen diff` needs only the plan). */
  planOnly?: boolean;
  /** Operation filters (`--include-tags` …): only the operations they keep are generated. */
  filter?: OperationFilter;
  /** The generated server's default surface (`--surface`). */
  defaultSurface?: "all" | "search" | "code" | "auto";
  /** The generated server's default result budget in tokens (`--result-budget`; its own flag still wins). */
  resultBudget?: number;
  /** Generate a server without tools from a spec without operations (`--allow-empty`); default: an error (MG102). */
  allowEmpty?: boolean;
  /** Runtime features asked for (`--with`); default: the previous generation's (see plan/features.ts). */
  features?: readonly string[];
  /** Where the server runs (`--target`: node, worker, deno, bun, lambda); default: the previous generation's, else node. */
  targets?: readonly string[];
  /**
   * A break of the user's code (`src/custom/` no longer type-checks against the regenerated types,
   * MG205) is an error: the run writes nothing (`--strict-custom`). Default: a warning.
   */
  strictCustom?: boolean;
  /** The package's license (`--license`); default: the spec's `info.license` when it is an SPDX identifier. */
  license?: string;
  /**
   * Overlay 1.0 documents applied in order to the spec before the IR (`--overlay`); default: the
   * previous generation's (recorded in the manifest relative to `outDir`). `[]` applies none.
   */
  overlays?: readonly string[];
  /** Called as each stage finishes, for progress output. */
  onStage?: (stage: string, milliseconds: number) => void;
}

/**
 * The options a project remembers (in `.mcp-gen/manifest.json`, the field named here): a run that
 * does not give one takes the previous generation's. The CLI says so in their help (cli/commands/generate.ts).
 */
export const REMEMBERED_OPTIONS = {
  packageName: "packageName",
  repository: "repository",
  mcpName: "mcpName",
  defaultSurface: "surface",
  resultBudget: "resultBudget",
  features: "features",
  targets: "targets",
} as const satisfies Partial<Record<keyof GenerateOptions, keyof Manifest>>;

/**
 * `options` with each remembered option it does not give taken from the previous generation's
 * manifest; overlays too (`Manifest.overlays`: paths relative to `outDir`, resolved against it).
 */
export function withRemembered(
  options: GenerateOptions,
  manifest: Manifest | undefined,
  outDir?: string,
): GenerateOptions {
  const filled: Record<string, unknown> = { ...options };
  for (const [option, field] of Object.entries(REMEMBERED_OPTIONS))
    if (filled[option] === undefined && manifest?.[field] !== undefined) filled[option] = manifest[field];
  if (filled.overlays === undefined && manifest?.overlays !== undefined && outDir !== undefined)
    filled.overlays = manifest.overlays.map((overlay) =>
      isUrl(overlay.path) ? overlay.path : resolve(outDir, overlay.path),
    );
  return filled as unknown as GenerateOptions;
}
