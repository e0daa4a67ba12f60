import { relative as relativePath, resolve as resolvePath, sep } from "node:path";
import { Codes, DiagnosticBag, GenerationError, type Diagnostic } from "../shared/diagnostics.js";
import type { OverlayRecord } from "../shared/state-files.js";
import { isUrl } from "./load/read-document.js";
import type { ApiDiff } from "./plan/changes/diff-tools.js";
import { type GenerateOptions, withRemembered } from "./generate-options.js";
import { type Timed, WorkerChoreography } from "./generate-worker.js";
import { formatFiles } from "./emit/format.js";
import { emitProject } from "./emit/project-files.js";
import type { EmittedFile } from "./emit/emitted-file.js";
import { assertServerJson } from "./emit/publishing/server-json-check.js";
import type { ApiIR } from "./ir/ir-types.js";
import { buildIR } from "./ir/build-ir.js";
import { loadSpec, type LoadedSpec } from "./load/load-spec.js";
import { readPreviousState, type PreviousState } from "./plan/previous-state.js";
import { planProject, type PlanOptions } from "./plan/plan-project.js";
import type { ProjectPlan } from "./plan/plan-types.js";
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

/** One run of the pipeline: what every step reads and adds to. */
interface PipelineRun {
  readonly options: GenerateOptions;
  /** The diagnostics of every stage, in stage order. */
  readonly bag: DiagnosticBag;
  readonly timings: Array<{ stage: string; ms: number }>;
  /** Runs a stage and records its time (and tells `options.onStage`). */
  readonly timed: Timed;
  /** The emit worker's part: validation, then the TypeScript and the search index. */
  readonly worker: WorkerChoreography;
}

/** The manifest's record of the overlays `spec` was loaded with: paths relative to `outDir` (URLs as given). */
function overlayRecords(spec: Planned["spec"], outDir: string | undefined): OverlayRecord[] {
  return (spec.overlays ?? []).map(({ location, sha256 }) => ({
    path:
      isUrl(location) || outDir === undefined
        ? location
        : relativePath(resolvePath(outDir), resolvePath(location)).split(sep).join("/"),
    sha256,
  }));
}

/** The pipeline as its steps; see `generate`. */
async function runPipeline(options: GenerateOptions): Promise<GenerateResult> {
  const run = startRun(options);
  try {
    const previous: PreviousState = options.outDir ? await readPreviousState(options.outDir) : {};
    const remembered = withRemembered(options, previous.manifest, options.outDir);
    const planned = await loadAndPlan(run, previous, remembered);
    const { plan } = planned;
    if (options.planOnly) {
      await run.worker.validated();
      return resultOf(run, plan, []);
    }
    const files = await emitFiles(run, planned, previous);
    files.push(manifestOf(plan, files, remembered, planned.spec, options.outDir));
    await checkCustom(run, plan, files, previous);
    return await writeFiles(run, resultOf(run, plan, files), previous);
  } catch (error) {
    await run.worker.fail(); // a failed run still reports the validation warnings
    throw error;
  }
}

/**
 * What the stages after the plan need of the earlier ones. Not the parsed document nor the IR:
 * they are let go once the plan is made, so the GC can reclaim them before the emit stage fills
 * the heap (MS Graph beta: hundreds of megabytes beside the worker thread's heap).
 */
interface Planned {
  plan: ProjectPlan;
  /** The document's JSON text, until the emit stage takes it (`takeDocument`). */
  apiDocument: string | undefined;
  /** What the manifest records of the spec. */
  spec: Pick<LoadedSpec, "sha256" | "overlays">;
}

/** load, ir, plan: the plan, and the document's JSON text; validation started. */
async function loadAndPlan(run: PipelineRun, previous: PreviousState, remembered: GenerateOptions): Promise<Planned> {
  const spec = await load(run, remembered);
  // Serialized before later stages see the document: the server serves it as a resource, and the
  // worker validates it while this thread builds the IR and the plan.
  const apiDocument = JSON.stringify(spec.document);
  run.worker.startValidation(spec.document, apiDocument, run.bag, run.timed);
  const ir = await run.timed("ir", () => buildIR(spec, run.bag, { allowEmpty: run.options.allowEmpty }));
  run.bag.throwIfErrors("Reading the operations");
  const plan = await makePlan(run, ir, previous, remembered);
  return { plan, apiDocument, spec: { sha256: spec.sha256, overlays: spec.overlays } };
}

/** The document's JSON text, handed over once: `planned` no longer holds it. */
function takeDocument(planned: Planned): string | undefined {
  const { apiDocument } = planned;
  planned.apiDocument = undefined;
  return apiDocument;
}

/** A run's state before its first stage; the worker thread starts loading ts-morph now. */
function startRun(options: GenerateOptions): PipelineRun {
  const timings: PipelineRun["timings"] = [];
  const timed: Timed = async (stage, work) => {
    const start = performance.now();
    const value = await work();
    const ms = performance.now() - start;
    timings.push({ stage, ms });
    options.onStage?.(stage, ms);
    return value;
  };
  return { options, bag: new DiagnosticBag(), timings, timed, worker: new WorkerChoreography(!options.planOnly) };
}

/** load: the document, read, parsed, bundled and overlaid (validated later, by the worker). */
async function load(run: PipelineRun, remembered: GenerateOptions): Promise<LoadedSpec> {
  const { spec, allowRemote, refRoot } = run.options;
  const overlays = remembered.overlays;
  const loaded = await run.timed("load", () =>
    loadSpec(spec, { allowRemote, refRoot, validate: false, overlays }, run.bag),
  );
  run.bag.throwIfErrors("Loading the spec");
  return loaded!; // undefined only with an error, thrown above
}

/** plan: every decision about the project, from the IR, the options and the previous generation. */
async function makePlan(
  run: PipelineRun,
  ir: ApiIR,
  previous: PreviousState,
  remembered: GenerateOptions,
): Promise<ProjectPlan> {
  const plan = await run.timed("plan", () => planProject(ir, planOptions(run.options, previous, remembered), run.bag));
  run.bag.throwIfErrors("Planning the server");
  return plan;
}

/** The planner's options: the run's, the remembered ones, and what the previous generation left. */
function planOptions(options: GenerateOptions, previous: PreviousState, remembered: GenerateOptions): PlanOptions {
  return {
    packageName: remembered.packageName,
    repository: remembered.repository,
    mcpName: remembered.mcpName,
    auth: options.auth,
    envPrefix: options.envPrefix,
    outputSchemas: options.outputSchemas,
    ...(options.filter ? { filter: options.filter } : {}),
    ...(remembered.defaultSurface ? { defaultSurface: remembered.defaultSurface } : {}),
    ...(remembered.resultBudget !== undefined ? { resultBudget: remembered.resultBudget } : {}),
    features: remembered.features ?? [],
    ...(remembered.targets ? { targets: remembered.targets } : {}),
    ...(previous.hasCustomCode ? { hasCustomCode: true } : {}),
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
  };
}

/**
 * emit, format, typescript: the project's files. The worker prints the TypeScript while this
 * thread emits and formats the rest; the validation findings are in once this returns.
 */
async function emitFiles(run: PipelineRun, planned: Planned, previous: PreviousState): Promise<EmittedFile[]> {
  const { plan } = planned;
  run.worker.startPrinting(plan);
  // Validation done in this thread runs now, while the worker prints, so the document can go.
  await run.worker.validatedHere();
  const emitted = await run.timed("emit", () =>
    keepUserPackageJson(emitProject(plan, { apiDocument: takeDocument(planned), worker: "later" }), previous),
  );
  const formatted = await run.timed("format", () => formatFiles(emitted, plan.tools.length));
  assertServerJson(fileText(formatted, "server.json"), fileText(formatted, "package.json"));
  await run.worker.validated();
  // The manifest's hashes of these files, while the worker prints (a big API's worker finishes last).
  for (const file of formatted) if (!file.once) fileSha256(file);
  await run.worker.join(formatted, run.timed);
  return formatted;
}

/** The manifest of `files`: their hashes, the remembered options and the provenance. */
function manifestOf(
  plan: ProjectPlan,
  files: EmittedFile[],
  remembered: GenerateOptions,
  spec: Planned["spec"],
  outDir: string | undefined,
) {
  return manifestFile(
    buildManifest(files, {
      packageName: plan.packageName,
      packageVersion: plan.version,
      repository: remembered.repository,
      mcpName: remembered.mcpName,
      surface: plan.defaultSurface,
      resultBudget: plan.resultBudget,
      features: plan.askedFeatures,
      targets: plan.targets,
      overlays: overlayRecords(spec, outDir),
      provenance: { mcpGenVersion: generatorVersion(), runtimeVersion: runtimeVersion(), specSha256: spec.sha256 },
    }),
  );
}

/** custom: the user's `src/custom/` type-checked against the new files (MG205; an error with `strictCustom`). */
async function checkCustom(
  run: PipelineRun,
  plan: ProjectPlan,
  files: EmittedFile[],
  previous: PreviousState,
): Promise<void> {
  const { outDir, strictCustom } = run.options;
  if (!outDir) return;
  const breaks = await run.timed("custom", () =>
    checkCustomCode({
      outDir,
      files,
      previous: previous.manifest,
      tools: knownTools(plan, previous),
      strict: strictCustom,
    }),
  );
  for (const item of breaks) run.bag.add(item);
  run.bag.throwIfErrors("Checking src/custom/ against the regenerated types");
}

/** write (or check): the files into the output folder, or compared with it; nothing without one. */
async function writeFiles(run: PipelineRun, result: GenerateResult, previous: PreviousState): Promise<GenerateResult> {
  const { outDir, check, force } = run.options;
  if (outDir && check) {
    result.check = await run.timed("check", () => checkOutput(outDir, result.files, previous.manifest));
  } else if (outDir) {
    result.write = await run.timed("write", () => writeOutput(outDir, result.files, { force }));
    result.outDir = result.write.outDir;
    const packageJson = result.files.find((file) => file.path === "package.json")?.content;
    if (previous.packageJson !== undefined && packageJson !== undefined)
      result.dependencyChanges = dependencyChanges(previous.packageJson, packageJson);
  }
  return result;
}

/** The result of a run that got this far. */
function resultOf(run: PipelineRun, plan: ProjectPlan, files: EmittedFile[]): GenerateResult {
  const diff = plan.diff;
  return { plan, files, diagnostics: run.bag.items, timings: run.timings, ...(diff ? { diff } : {}) };
}
