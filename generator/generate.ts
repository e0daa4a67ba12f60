import { DiagnosticBag, type Diagnostic } from "./diagnostics.js";
import { formatFiles } from "./emit/format.js";
import { emitProject, type EmittedFile } from "./emit/project-files.js";
import { buildIR } from "./ir/build-ir.js";
import { loadSpec } from "./load/load-spec.js";
import { planProject } from "./plan/plan-project.js";
import type { ProjectPlan } from "./plan/types.js";
import { writeOutput } from "./write/write-output.js";

/** Everything `generate` accepts. */
export interface GenerateOptions {
  /** Path (or URL, with `allowRemote`) of the OpenAPI document. */
  spec: string;
  /** Output folder; when absent nothing is written (the files are returned). */
  outDir?: string;
  /** npm package name of the generated server. */
  packageName?: string;
  /** Replace a non-empty output folder. */
  force?: boolean;
  /** Allow the spec and its `$ref`s to come from the network. */
  allowRemote?: boolean;
  /** Called as each stage finishes, for progress output. */
  onStage?: (stage: string, milliseconds: number) => void;
}

/** What a run produced. */
export interface GenerateResult {
  plan: ProjectPlan;
  files: EmittedFile[];
  diagnostics: Diagnostic[];
  /** Milliseconds per stage, in pipeline order. */
  timings: Array<{ stage: string; ms: number }>;
  /** Absolute output folder, when written. */
  outDir?: string;
}

/**
 * The pipeline, top to bottom: load → ir → plan → emit → format → write. Throws a
 * `GenerationError` (with every diagnostic) when the spec cannot be turned into a server.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
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

  const spec = await timed("load", () => loadSpec(options.spec, { allowRemote: options.allowRemote }, bag));
  bag.throwIfErrors("Loading the spec");
  // Serialized before later stages see the document: the server serves it as a resource.
  const apiDocument = JSON.stringify(spec!.document);
  const ir = await timed("ir", () => buildIR(spec!, bag));
  const plan = await timed("plan", () => planProject(ir, { packageName: options.packageName }, bag));
  bag.throwIfErrors("Planning the server");
  const emitted = await timed("emit", () => emitProject(plan, { apiDocument }));
  const files = await timed("format", () => formatFiles(emitted));
  let outDir: string | undefined;
  if (options.outDir) {
    const target = options.outDir;
    outDir = await timed("write", () => writeOutput(target, files, { force: options.force }));
  }
  return { plan, files, diagnostics: bag.items, timings, outDir };
}
