/** Target node: the project as it has always been (stdio, or its own HTTP server; Dockerfile, compose). */
import type { TargetEmitter } from "./target-emitter.js";

/** node adds nothing: every file of a Node project is the project's own. */
export const nodeTarget: TargetEmitter = {
  files: () => [],
  scripts: {},
};
