/**
 * The generator's public face: everything `cli/` uses, and nothing else imports from `cli/` into
 * the generator (test/unit/generator-rooms.ts keeps it so). Three rooms stand behind it:
 * - `pipeline/`: the stages of one generation, load → ir → plan → emit → write, run by `generate.ts`;
 * - `commands/`: what the other commands add on top of the pipeline (`diff`, `lint`, `check`, `workspace`);
 * - `shared/`: what both use (diagnostics, JSON pointers, schema walking, state files, client profiles,
 *   the contract with the runtime).
 * See ARCHITECTURE.md.
 */
export { runCheck } from "./commands/check/run-check.js";
export type { CheckReport } from "./commands/check/run-check.js";
export { TargetError } from "./commands/check/target.js";
export type { CheckTarget } from "./commands/check/target.js";
export { diffSpecs } from "./commands/diff/diff-specs.js";
export { formatDiff } from "./commands/diff/format-diff.js";
export { NotAServerFolder, hasBlockingFindings, lintServer, readServerTools } from "./commands/lint/lint-server.js";
export type { LintReport } from "./commands/lint/lint-server.js";
export { buildWorkspace } from "./commands/workspace/build.js";
export type { ServerFailure } from "./commands/workspace/build.js";
export { checkFleet } from "./commands/workspace/check-fleet.js";
export { PublishOrderError, publishWorkspace } from "./commands/workspace/publish.js";
export { buildReport } from "./commands/workspace/report-data.js";
export { renderReportHtml } from "./commands/workspace/report-html.js";
export { testWorkspace } from "./commands/workspace/test-fleet.js";
export {
  WORKSPACE_FILE,
  WorkspaceError,
  formatWorkspaceDiagnostic,
  loadWorkspace,
} from "./commands/workspace/workspace-file.js";
export type { Workspace } from "./commands/workspace/workspace-file.js";
export { generate } from "./pipeline/generate.js";
export { REMEMBERED_OPTIONS } from "./pipeline/generate-options.js";
export type { GenerateOptions, GenerateResult } from "./pipeline/generate.js";
export { describeDependencyChanges } from "./pipeline/write/dependency-changes.js";
export { featureCatalog } from "./pipeline/plan/features.js";
export { TARGET_NAMES } from "./pipeline/plan/targets.js";
export { parseAuthOverride } from "./pipeline/plan/credentials.js";
export { listOption, MAX_RESULT_BUDGET_TOKENS, MIN_RESULT_BUDGET_TOKENS } from "./shared/contract.js";
export type { OperationFilter, SurfaceName } from "./shared/contract.js";
export { Codes, GenerationError } from "./shared/diagnostics.js";
export type { Diagnostic } from "./shared/diagnostics.js";
export { readPackageJson } from "./shared/package-root.js";
export { selectProfiles } from "./shared/profiles.js";
