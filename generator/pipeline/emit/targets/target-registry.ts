/**
 * The targets' emitters by name (plan/targets.ts lists the names and what each refuses), and what
 * a project's targets add together: their files, scripts, build steps, dev dependencies and
 * `.gitignore` lines, in TARGET_NAMES order.
 */
import type { ProjectPlan } from "../../plan/plan-types.js";
import type { TargetName } from "../../plan/targets.js";
import type { EmittedFile } from "../emitted-file.js";
import { bunTarget } from "./bun-target.js";
import { denoTarget } from "./deno-target.js";
import { lambdaTarget } from "./lambda-target.js";
import { nodeTarget } from "./node-target.js";
import type { TargetEmitter } from "./target-emitter.js";
import { workerTarget } from "./worker-target.js";

/** Every target's emitter. */
const EMITTERS: Readonly<Record<TargetName, TargetEmitter>> = {
  node: nodeTarget,
  worker: workerTarget,
  deno: denoTarget,
  bun: bunTarget,
  lambda: lambdaTarget,
};

/** The emitters of the project's targets. */
function emittersOf(plan: ProjectPlan): TargetEmitter[] {
  return plan.targets.map((target) => EMITTERS[target]);
}

/** The files the project's targets add. */
export function targetFiles(plan: ProjectPlan): EmittedFile[] {
  return emittersOf(plan).flatMap((emitter) => emitter.files(plan));
}

/** The package.json scripts the targets add. */
export function targetScripts(plan: ProjectPlan): Record<string, string> {
  return Object.assign({}, ...emittersOf(plan).map((emitter) => emitter.scripts)) as Record<string, string>;
}

/** `npm run build`'s steps after tsc and the Node bundle: each target's artifact. */
export function targetBuildSteps(plan: ProjectPlan): string[] {
  return emittersOf(plan).flatMap((emitter) => (emitter.buildStep ? [emitter.buildStep] : []));
}

/** The dev dependencies the targets add. */
export function targetDevDependencies(plan: ProjectPlan): Record<string, string> {
  return Object.assign({}, ...emittersOf(plan).map((emitter) => emitter.devDependencies ?? {})) as Record<
    string,
    string
  >;
}

/** The `.gitignore` lines the targets add. */
export function targetGitignore(plan: ProjectPlan): string[] {
  return emittersOf(plan).flatMap((emitter) => emitter.gitignore ?? []);
}
