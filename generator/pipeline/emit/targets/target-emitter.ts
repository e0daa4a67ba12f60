/**
 * What one target (`--target`, plan/targets.ts) adds to a project: only its own files (entry file,
 * deploy files), package.json scripts (`dev:<target>`, a build step of its artifact) and dev
 * dependencies. Its README section is in templates/README.md.hbs (`{{#if target.<name>}}`). node
 * adds nothing: its files are the project's own.
 */
import type { ProjectPlan } from "../../plan/plan-types.js";
import type { EmittedFile } from "../emitted-file.js";

/** The emitting side of a target. */
export interface TargetEmitter {
  /** Files only this target needs. */
  files(plan: ProjectPlan): EmittedFile[];
  /** package.json scripts it adds (`dev:<target>`, `deploy:<target>`). */
  scripts: Readonly<Record<string, string>>;
  /** A command appended to `npm run build` that makes the target's deployable artifact, if it has one. */
  buildStep?: string;
  /** devDependencies it adds (exact versions). */
  devDependencies?: Readonly<Record<string, string>>;
  /** Lines of `.gitignore` it adds (local settings files that must never be committed or bundled). */
  gitignore?: readonly string[];
}
