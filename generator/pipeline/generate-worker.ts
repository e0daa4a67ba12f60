/**
 * The emit worker's part in one generation (generate.ts), in the order the pipeline asks for it:
 * the thread starts loading ts-morph when the run starts; right after the load stage it validates
 * the document while this thread builds the IR and the plan; once the plan is ready it prints the
 * project's TypeScript and builds the search index while this thread emits and formats the other
 * files; then its files join the others. A plan-only run makes no files and starts no thread (it
 * validates here).
 */
import type { DiagnosticBag } from "../shared/diagnostics.js";
import type { EmittedFile } from "./emit/emitted-file.js";
import { TOOLS_DATA_PATH, workerInput } from "./emit/project-files.js";
import { EmitWorker } from "./emit/worker/emit-worker.js";
import { type WorkerOutput, workerFiles } from "./emit/worker/worker-files.js";
import { validationFindings } from "./load/validate.js";
import type { ProjectPlan } from "./plan/plan-types.js";

/** Runs one stage of the pipeline, recording its time under `stage`. */
export type Timed = <T>(stage: string, run: () => T | Promise<T>) => Promise<T>;

/** The largest document (in characters of JSON text) that the worker thread validates; see `startValidation`. */
export const WORKER_VALIDATION_MAX_CHARS = 16_000_000;

/** The worker thread of one generation and the jobs the pipeline gives it. */
export class WorkerChoreography {
  private readonly worker: EmitWorker | undefined;
  /** The validation not yet awaited (it holds the document until then). */
  private validation: (() => Promise<void>) | undefined;
  /** That validation is done in this thread (the document is too big for the thread's copy). */
  private validatesHere = false;
  private printing: Promise<WorkerOutput> | undefined;

  /** Starts the thread (it loads ts-morph at once) when the run makes files. */
  constructor(makesFiles: boolean) {
    this.worker = makesFiles ? new EmitWorker() : undefined;
  }

  /**
   * Starts validating the loaded `document` (`json` is its JSON text). Validation only ever warns:
   * its findings are awaited later (`validated`) and take their place after the diagnostics `bag`
   * holds now, the load stage's.
   */
  startValidation(document: Record<string, unknown>, json: string, bag: DiagnosticBag, timed: Timed): void {
    const here = () => validationFindings(document);
    // The thread's copy of the document costs memory in proportion to the spec: a bigger one is
    // validated in this thread, on the document it already holds (MS Graph beta, 47 MB: 3.7 GiB of
    // peak RSS with its copy in the thread, 3.2 GiB without; GitHub's 13 MB spec is 7 M characters).
    const inThread = json.length <= WORKER_VALIDATION_MAX_CHARS ? this.worker?.validate(json, here) : undefined;
    this.validatesHere = inThread === undefined;
    const at = bag.items.length;
    this.validation = async () => {
      bag.insert(at, await timed("validate", () => inThread ?? here()));
    };
  }

  /**
   * The validation findings are in the bag (once; nothing when validation never started). The
   * validation is let go as it starts, and the document with it once it ends.
   */
  async validated(): Promise<void> {
    const validation = this.validation;
    this.validation = undefined;
    await validation?.();
  }

  /**
   * `validated`, when the validation is this thread's own work (not the worker's, which may
   * still be running): the pipeline calls it as soon as the document has no other use.
   */
  async validatedHere(): Promise<void> {
    if (this.validatesHere) await this.validated();
  }

  /** Starts printing the project's TypeScript and building the search index of `plan` in the thread. */
  startPrinting(plan: ProjectPlan): void {
    if (!this.worker) throw new Error("a plan-only run prints no files");
    this.printing = this.worker.run(workerInput(plan, true));
  }

  /**
   * The thread's files (formatted by the thread), put into `formatted` before `data/tools.json`
   * (or its packed form), as the "typescript" stage: the time the pipeline waited for them (the
   * work overlapped emit and format).
   */
  async join(formatted: EmittedFile[], timed: Timed): Promise<void> {
    const printing = this.printing;
    if (!printing) throw new Error("join before startPrinting");
    const fromWorker = await timed("typescript", async () => workerFiles(await printing));
    formatted.splice(
      formatted.findIndex((file) => file.path.startsWith(TOOLS_DATA_PATH)),
      0,
      ...fromWorker,
    );
  }

  /** A failed run: the validation warnings still reported, the thread ended. */
  async fail(): Promise<void> {
    await this.validated();
    this.worker?.stop();
  }
}
