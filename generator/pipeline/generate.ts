import { Codes, DiagnosticBag, GenerationError, type Diagnostic } from "../shared/diagnostics.js";
import type { ApiDiff } from "./plan/changes/diff-tools.js";
import { type GenerateOptions, withRemembered } from "./generate-options.js";
import { formatFiles } from "./emit/format.js";
import { emitProject, TOOLS_DATA_PATH, workerInput } from "./emit/project-files.js";
import type { EmittedFile } from "./emit/emitted-file.js";
import { workerFiles } from "./emit/worker/worker-files.js";
import { assertServerJson } from "./emit/publishing/server-json-check.js";
import { EmitWorker } from "./emit/worker/emit-worker.js";
import { buildIR } from "./ir/build-ir.js";
import { loadSpec, type LoadedSpec } from "./load/load-spec.js";
import { readPreviousState, type PreviousState } from "./plan/previous-state.js";
import { validationFindings } from "./load/validate.js";
import { planProject } from "./plan/plan-project.js";
import type { ProjectPlan } from "./plan/types.js";
import { pascalCase } from "./plan/names.js";
import { generatorVersion, runtimeVersion } from "../shared/provenance.js";
import { checkCustomCode } from "./write/check-custom.js";
import { checkOutput, type OutputCheck } from "./write/check-output.js";
import { buildManifest, fileSha256, manifestFile } from "./write/manifest.js";
import { dependencyChanges, type DependencyChange } from "./write/dependency-changes.js";
import { mergePackageJson } from "./write/merge-package-json.js";
import { writeOutput, type WriteSummary } from "./write/write-output.js";

export type { GenerateOptions } from "./generate-options.js";

/** What a run produced. */
export interface GenerateResult {
  plan: ProjectPlan;
  /** The project files (empty with `planOnly`). */
  files: EmittedFile[];
  diagnostics: Diagnostic[];
  /** Milliseconds per stage, in pipeline order. */
  timings: Array<{ stage: string; ms: number }>;
  /** Absolute output folder, when written. */
  outDir?: string;
  /** Tool changes against the previous generation in `outDir`; undefined on a first generation. */
  diff?: ApiDiff;
  /** What the write stage did (absent with `check` or without `outDir`). */
  write?: WriteSummary;
  /** With `check`: how the folder differs from what would be written. */
  check?: OutputCheck;
  /** A regeneration that wrote: what changed in package.json's dependencies (`npm install` is due when any). */
  dependencyChanges?: DependencyChange[];
}

/** The version in the project's package.json on disk (the user may have run `npm version`). */
function versionOnDisk(previous: PreviousState): string | undefined {
  try {
    const version = (JSON.parse(previous.packageJson ?? "") as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tool names of this generation and the previous one (a removed tool is what custom code most
 * often still uses), and their type names, for saying which tool a break of the user's code concerns.
 */
function knownTools(
  plan: ProjectPlan,
  previous: PreviousState,
): { names: Set<string>; byTypeName: Map<string, string> } {
  const names = new Set(plan.tools.map((tool) => tool.name));
  const byTypeName = new Map<string, string>();
  for (const tool of plan.tools)
    for (const type of [tool.inputTypeName, tool.outputTypeName]) if (type) byTypeName.set(type, tool.name);
  for (const old of [
    ...(previous.toolLock?.tools.map((entry) => entry.tool) ?? []),
    ...(previous.contracts?.tools.map((tool) => tool.name) ?? []),
  ]) {
    if (names.has(old)) continue;
    names.add(old);
    // The planner's type names: PascalCase(tool) + Input/Output (plan-project.ts).
    for (const suffix of ["Input", "Output"])
      if (!byTypeName.has(pascalCase(old) + suffix)) byTypeName.set(pascalCase(old) + suffix, old);
  }
  return { names, byTypeName };
}

/** The content of the emitted file at `path` (throws when absent: the emit stage always writes it). */
function fileText(files: EmittedFile[], path: string): string {
  const file = files.find((candidate) => candidate.path === path);
  if (!file) throw new Error(`emit wrote no ${path}`);
  return file.content;
}

/** Merges the user's additions to package.json (dependencies, scripts, other fields) into the generated one. */
function keepUserPackageJson(files: EmittedFile[], previous: PreviousState): EmittedFile[] {
  if (previous.packageJson === undefined) return files;
  return files.map((file) => {
    if (file.path !== "package.json") return file;
    const merged = mergePackageJson(file.content, previous.packageJson!);
    return merged === undefined ? file : { ...file, content: merged, merged: true };
  });
}

/**
 * The pipeline, top to bottom: load → ir → plan → emit → format → write. With an existing output
 * folder, its previous state (tool-name lock, tool contracts, manifest) feeds the plan (stable names),
 * the diff (what changed, which version bump) and the write (update only the generator's files).
 * Throws a `GenerationError` (with every diagnostic) when the spec cannot be turned into a server or
 * the output cannot be updated safely.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  try {
    return await runPipeline(options);
  } catch (error) {
    // The load stage bounds nesting (limits.ts); this is the net for any walk that still overflows.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new GenerationError("The spec is too deeply nested", [
        {
          code: Codes.resourceLimit,
          severity: "error",
          message: "The spec nests too deeply for mcp-gen to process (a recursion ran out of stack).",
          help: "Flatten the structure or use $ref for shared schemas; please report the spec if it is a real API.",
        },
      ]);
    }
    throw error;
  }
}

/** The largest document (in characters of JSON text) that the worker thread validates; see runPipeline. */
export const WORKER_VALIDATION_MAX_CHARS = 16_000_000;

async function runPipeline(options: GenerateOptions): Promise<GenerateResult> {
  const bag = new DiagnosticBag();
  const timings: Array<{ stage: string; ms: number }> = [];
  const timed = async <T>(stage: string, run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await run();
    const ms = performance.now() - start;
    timings.push({ stage, ms });
    options.onStage?.(stage, ms);
    return value;
  };

  // The validation of the document, the project's TypeScript (printed by ts-morph) and the search
  // index are made in a worker thread that starts loading ts-morph now (not for a plan-only run,
  // which makes no files; it validates here).
  const emitWorker = options.planOnly ? undefined : new EmitWorker();
  let spec: LoadedSpec | undefined;
  try {
    spec = await timed("load", () =>
      loadSpec(options.spec, { allowRemote: options.allowRemote, refRoot: options.refRoot, validate: false }, bag),
    );
    bag.throwIfErrors("Loading the spec");
  } catch (error) {
    emitWorker?.stop();
    throw error;
  }
  // Serialized before later stages see the document: the server serves it as a resource, and the
  // worker validates it while this thread builds the IR and the plan.
  const apiDocument = JSON.stringify(spec!.document);
  const validateHere = () => validationFindings(spec!.document);
  // The thread's copy of the document costs memory in proportion to the spec: a bigger one is
  // validated in this thread, on the document it already holds (MS Graph beta, 47 MB: 3.7 GiB of
  // peak RSS with its copy in the thread, 3.2 GiB without; GitHub's 13 MB spec is 7 M characters).
  const validation =
    apiDocument.length <= WORKER_VALIDATION_MAX_CHARS ? emitWorker?.validate(apiDocument, validateHere) : undefined;
  // Validation only ever warns: its findings are awaited after the format stage (or before a
  // plan-only or failed run returns) and take their place after loading's.
  const validationAt = bag.items.length;
  let validationDone = false;
  const validated = async () => {
    if (validationDone) return;
    validationDone = true;
    bag.insert(validationAt, await timed("validate", () => validation ?? validateHere()));
  };
  try {
    const ir = await timed("ir", () => buildIR(spec!, bag, { allowEmpty: options.allowEmpty }));
    bag.throwIfErrors("Reading the operations");
    const previous: PreviousState = options.outDir ? await readPreviousState(options.outDir) : {};
    const remembered = withRemembered(options, previous.manifest);
    const plan = await timed("plan", () =>
      planProject(
        ir,
        {
          packageName: remembered.packageName,
          repository: remembered.repository,
          mcpName: remembered.mcpName,
          auth: options.auth,
          envPrefix: options.envPrefix,
          outputSchemas: options.outputSchemas,
          ...(options.filter ? { filter: options.filter } : {}),
          ...(remembered.defaultSurface ? { defaultSurface: remembered.defaultSurface } : {}),
          features: remembered.features ?? [],
          ...(previous.customCallsClient ? { customCallsClient: true } : {}),
          ...(options.license !== undefined ? { license: options.license } : {}),
          toolLock: options.resetToolNames ? undefined : (options.toolLock ?? previous.toolLock),
          previous: {
            ...(previous.contracts ? { contracts: previous.contracts } : {}),
            ...(previous.manifest
              ? { version: { recorded: previous.manifest.packageVersion, onDisk: versionOnDisk(previous) } }
              : {}),
          },
          bump: options.bump,
        },
        bag,
      ),
    );
    bag.throwIfErrors("Planning the server");
    const diff = plan.diff;
    if (options.planOnly) {
      await validated();
      return { plan, files: [], diagnostics: bag.items, timings, ...(diff ? { diff } : {}) };
    }
    const working = emitWorker!.run(workerInput(plan, true));
    const emitted = await timed("emit", () =>
      keepUserPackageJson(emitProject(plan, { apiDocument, worker: "later" }), previous),
    );
    const formatted = await timed("format", () => formatFiles(emitted, plan.tools.length));
    assertServerJson(fileText(formatted, "server.json"), fileText(formatted, "package.json"));
    await validated();
    // The manifest's hashes of these files, while the worker prints (a big API's worker finishes last).
    for (const file of formatted) if (!file.once) fileSha256(file);
    // What the pipeline waited for the worker's files (most of its work overlapped emit and format),
    // and the formatting of the TypeScript files people read.
    const fromWorker = await timed("typescript", async () =>
      formatFiles(
        workerFiles(
          await working,
          plan.tools.map((tool) => tool.name),
        ),
        plan.tools.length,
      ),
    );
    formatted.splice(
      formatted.findIndex((file) => file.path === TOOLS_DATA_PATH),
      0,
      ...fromWorker,
    );
    const files = [
      ...formatted,
      manifestFile(
        buildManifest(formatted, {
          packageName: plan.packageName,
          packageVersion: plan.version,
          repository: remembered.repository,
          mcpName: remembered.mcpName,
          surface: plan.defaultSurface,
          features: plan.askedFeatures,
          provenance: { mcpGenVersion: generatorVersion(), runtimeVersion: runtimeVersion(), specSha256: spec!.sha256 },
        }),
      ),
    ];
    if (options.outDir) {
      const target = options.outDir;
      const breaks = await timed("custom", () =>
        checkCustomCode({
          outDir: target,
          files,
          previous: previous.manifest,
          tools: knownTools(plan, previous),
          strict: options.strictCustom,
        }),
      );
      for (const item of breaks) bag.add(item);
      bag.throwIfErrors("Checking src/custom/ against the regenerated types");
    }
    const result: GenerateResult = { plan, files, diagnostics: bag.items, timings, ...(diff ? { diff } : {}) };
    if (options.outDir && options.check) {
      const target = options.outDir;
      result.check = await timed("check", () => checkOutput(target, files, previous.manifest));
    } else if (options.outDir) {
      const target = options.outDir;
      result.write = await timed("write", () => writeOutput(target, files, { force: options.force }));
      result.outDir = result.write.outDir;
      const packageJson = files.find((file) => file.path === "package.json")?.content;
      if (previous.packageJson !== undefined && packageJson !== undefined)
        result.dependencyChanges = dependencyChanges(previous.packageJson, packageJson);
    }
    return result;
  } catch (error) {
    await validated(); // a failed run still reports the validation warnings
    emitWorker?.stop();
    throw error;
  }
}
