/**
 * The data of `mcp-gen workspace report` (`report.json`, and what `report.html` shows): per server
 * its tools, the surface it serves and the size of its `tools/list` (from `mcp-gen lint`'s reading of
 * the server folder), its tests, compliance score, warnings, version and the changes of its last
 * build; fleet totals on top. Deterministic: no clock, no absolute paths.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import type { ApiDiff } from "../../pipeline/plan/changes/diff-tools.js";
import { lintServer, readServerTools } from "../lint/lint-server.js";
import { clientProfiles } from "../../shared/profiles.js";
import { readPackageJson } from "../../shared/package-root.js";
import { readState, type TestState, type WarningEntry } from "./state.js";
import type { Workspace } from "./workspace-file.js";

/** The changes of a server's last build, as people read them. */
export interface ChangesReport {
  bump: string;
  breaking: boolean;
  added: string[];
  removed: string[];
  renamed: string[];
  /** Each breaking change in words: `getPet input: petId narrowed from string to integer`. */
  breakingChanges: string[];
  /** How many compatible changes (new optional arguments, wider types, prose). */
  compatibleChanges: number;
}

/** One server of the report. */
export interface ServerReport {
  name: string;
  out: string;
  spec: string;
  version?: string;
  previousVersion?: string;
  /** What the last build did with it. */
  generated?: "created" | "updated" | "unchanged";
  /** The server's state at a glance. */
  status: "passing" | "failing" | "not tested" | "not built";
  /** Operation tools (what `--surface all` lists). */
  tools?: number;
  surface?: { requested: string; served: string; reason: string };
  /** What `tools/list` shows on that surface: tools, bytes and estimated tokens. */
  toolsList?: { tools: number; bytes: number; tokens: number };
  tests?: { passed: number; failed: number; skipped: number; failures: string[] };
  compliance?: Array<{ transport: string; score: number; failed: Array<{ id: string; message: string }> }>;
  warnings: { count: number; items: WarningEntry[] };
  /** What the clients of `mcp-gen lint` would drop, shorten or refuse (one line per finding). */
  lint: string[];
  changes?: ChangesReport;
}

/** The whole report (`report.json`). */
export interface FleetReport {
  workspace: string;
  generator: string;
  totals: {
    servers: number;
    tools: number;
    toolsListTokens: number;
    tests: { passed: number; failed: number; skipped: number };
    /** Lowest and mean stdio compliance score of the servers that were checked. */
    compliance: { checked: number; perfect: number; lowest?: number; mean?: number };
    warnings: number;
    /** Servers whose last build changed them, and those with breaking changes. */
    changed: number;
    breaking: number;
    failing: number;
  };
  servers: ServerReport[];
}

/** Warnings kept per server in the report (the count says how many there were). */
const SHOWN_WARNINGS = 20;

/** A build's tool diff as people read it. */
export function describeChanges(diff: ApiDiff): ChangesReport {
  const breakingChanges: string[] = [];
  let compatibleChanges = 0;
  for (const name of diff.removed) breakingChanges.push(`${name}: tool removed`);
  for (const change of diff.changed) {
    if (change.previousName) breakingChanges.push(`${change.previousName}: renamed to ${change.name}`);
    for (const [side, list] of [
      ["input", change.input],
      ["output", change.output],
    ] as const) {
      for (const item of list) {
        if (item.verdict === "breaking")
          breakingChanges.push(`${change.name} ${side}${item.at ? ` ${item.at}` : ""}: ${item.message}`);
        else compatibleChanges++;
      }
    }
    if (change.described) compatibleChanges++;
  }
  return {
    bump: diff.bump,
    breaking: diff.breaking,
    added: diff.added,
    removed: diff.removed,
    renamed: diff.changed.filter((c) => c.previousName).map((c) => `${c.previousName} → ${c.name}`),
    breakingChanges,
    compatibleChanges: compatibleChanges + diff.added.length,
  };
}

function statusOf(built: boolean, test: TestState | undefined): ServerReport["status"] {
  if (!built) return "not built";
  if (!test) return "not tested";
  const perfect = (test.compliance ?? []).every((c) => c.score === 100);
  return test.ok && test.failed === 0 && perfect ? "passing" : "failing";
}

/** Gathers the report of a workspace from its state and its server folders. */
export async function buildReport(workspace: Workspace): Promise<FleetReport> {
  const state = await readState(workspace.dir);
  const profiles = clientProfiles();
  const servers: ServerReport[] = [];
  for (const server of workspace.servers) {
    const kept = state.servers[server.name] ?? {};
    const build = kept.build;
    const test = kept.test;
    const built = existsSync(join(server.out, "dist", "index.js"));
    const entry: ServerReport = {
      name: server.name,
      out: server.outRelative,
      spec: server.specAsWritten,
      status: statusOf(built, test),
      warnings: { count: build?.warnings.length ?? 0, items: (build?.warnings ?? []).slice(0, SHOWN_WARNINGS) },
      lint: [],
    };
    if (build) {
      entry.version = build.version;
      entry.generated = build.generated;
      if (build.previousVersion) entry.previousVersion = build.previousVersion;
      if (build.diff) entry.changes = describeChanges(build.diff);
    }
    if (existsSync(join(server.out, "data", "tools.json"))) {
      const listed = await readServerTools(server.out);
      const lint = lintServer(listed, server.surface, profiles);
      entry.tools = listed.operations.length;
      entry.surface = { requested: lint.requestedSurface, served: lint.surface, reason: lint.reason };
      entry.toolsList = { tools: lint.tools, bytes: lint.bytes, tokens: lint.tokens };
      entry.lint = lint.profiles.flatMap((profile) =>
        profile.findings
          .filter((f) => f.effect !== "note")
          .map((f) => `${profile.name}: ${f.effect} ${f.rule}: ${f.message}`),
      );
    }
    if (test) {
      entry.tests = { passed: test.passed, failed: test.failed, skipped: test.skipped, failures: test.failures };
      entry.compliance = (test.compliance ?? []).map((c) => ({
        transport: c.transport,
        score: c.score,
        failed: c.failed,
      }));
    }
    servers.push(entry);
  }
  const stdioScores = servers.flatMap(
    (s) => s.compliance?.filter((c) => c.transport === "stdio").map((c) => c.score) ?? [],
  );
  const sum = (pick: (s: ServerReport) => number) => servers.reduce((total, s) => total + pick(s), 0);
  return {
    workspace: relative(workspace.dir, workspace.file),
    generator: `mcp-gen ${String(readPackageJson("package.json").version)}`,
    totals: {
      servers: servers.length,
      tools: sum((s) => s.tools ?? 0),
      toolsListTokens: sum((s) => s.toolsList?.tokens ?? 0),
      tests: {
        passed: sum((s) => s.tests?.passed ?? 0),
        failed: sum((s) => s.tests?.failed ?? 0),
        skipped: sum((s) => s.tests?.skipped ?? 0),
      },
      compliance: {
        checked: stdioScores.length,
        perfect: stdioScores.filter((score) => score === 100).length,
        ...(stdioScores.length > 0
          ? {
              lowest: Math.min(...stdioScores),
              mean: Math.round((10 * stdioScores.reduce((a, b) => a + b, 0)) / stdioScores.length) / 10,
            }
          : {}),
      },
      warnings: sum((s) => s.warnings.count),
      changed: servers.filter((s) => s.generated === "updated" || s.generated === "created").length,
      breaking: servers.filter((s) => s.changes?.breaking).length,
      failing: servers.filter((s) => s.status === "failing").length,
    },
    servers,
  };
}
