/**
 * `mcp-gen workspace check`: `--check` for the whole fleet, for CI. Every server is generated in
 * memory and compared with its folder (only the generator's files count: custom code and user files
 * do not make a server stale); nothing is written.
 */
import PQueue from "p-queue";
import { GenerationError } from "../../shared/diagnostics.js";
import { generate } from "../../pipeline/generate.js";
import type { OutputCheck } from "../../pipeline/write/check-output.js";
import type { ServerFailure } from "./build.js";
import type { Workspace, WorkspaceServer } from "./workspace-file.js";

/** One server's verdict. */
export interface FleetCheckEntry {
  server: WorkspaceServer;
  check: OutputCheck;
  /** The version a build would write (a changed spec bumps it). */
  version: string;
}

/** What `workspace check` found. */
export interface FleetCheck {
  entries: FleetCheckEntry[];
  failures: ServerFailure[];
  /** The servers a build would change. */
  stale: FleetCheckEntry[];
}

/** Compares every server folder with a fresh generation; writes nothing. */
export async function checkFleet(workspace: Workspace, options: { concurrency?: number } = {}): Promise<FleetCheck> {
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) });
  const outcomes = await Promise.all(
    workspace.servers.map((server) =>
      queue.add(async () => {
        try {
          const result = await generate({ ...server.options, spec: server.spec, outDir: server.out, check: true });
          return { entry: { server, check: result.check!, version: result.plan.version } };
        } catch (error) {
          if (!(error instanceof GenerationError)) throw error;
          return { failure: { server, diagnostics: error.diagnostics, message: error.message } };
        }
      }),
    ),
  );
  const entries = outcomes.flatMap((o) => (o.entry ? [o.entry] : []));
  return {
    entries,
    failures: outcomes.flatMap((o) => (o.failure ? [o.failure] : [])),
    stale: entries.filter((e) => !e.check.upToDate),
  };
}
