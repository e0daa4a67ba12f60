/**
 * `mcp-gen check`: starts (or reaches) one server, runs the compliance checks in order on one
 * connection and scores them. The score is the share of points of the checks that apply to the
 * server (a server that declares no logging is not asked to set a level), out of 100.
 */
import { origin, protocolVersionHeader, sep2243Headers } from "./http-checks.js";
import { discover, initialize, modernRequests, modernVersion, ping, stdioClean } from "./lifecycle-checks.js";
import { startTarget, type CheckTarget } from "./target.js";
import {
  cancellation,
  descriptions,
  footprint,
  invalidArgs,
  listing,
  names,
  objectRoots,
  schemasCompile,
  unknownTool,
} from "./tool-checks.js";
import type { CheckContext, CheckDefinition, CheckResult } from "./check-types.js";
import { UpstreamTripwire } from "./upstream-tripwire.js";
import { loggingLevel, resources } from "./utility-checks.js";

/**
 * Every check in the order it runs: the modern era first (a client probing with server/discover),
 * then the legacy handshake and what needs it; stdout cleanliness last, once everything was said.
 */
export const CHECKS: readonly CheckDefinition[] = [
  discover,
  modernVersion,
  modernRequests,
  initialize,
  ping,
  listing,
  names,
  descriptions,
  schemasCompile,
  objectRoots,
  footprint,
  unknownTool,
  invalidArgs,
  loggingLevel,
  resources,
  origin,
  protocolVersionHeader,
  sep2243Headers,
  cancellation,
  stdioClean,
];

/** What `mcp-gen check --json` prints. */
export interface CheckReport {
  /** Out of 100: the share of points of the checks that apply, rounded down (100 only when all pass). */
  score: number;
  checks: CheckResult[];
  transport: "stdio" | "http";
  server?: { name: string; version: string };
  /** The server's last stderr lines, when a check failed (what it said about it). */
  serverOutput?: string[];
}

/** Options of {@link runCheck}. */
export interface CheckOptions {
  /** Serve and check over Streamable HTTP instead of stdio (always for a URL target). */
  http?: boolean;
  /** Called as each check finishes (progress). */
  onResult?: (result: CheckResult) => void;
}

/** The score of a list of results: passed points over applicable points, out of 100 (floored). */
export function scoreOf(results: readonly CheckResult[]): number {
  const applicable = results.filter((r) => !r.skipped);
  const total = applicable.reduce((sum, r) => sum + r.weight, 0);
  const passed = applicable.filter((r) => r.ok).reduce((sum, r) => sum + r.weight, 0);
  return total === 0 ? 0 : Math.floor((100 * passed) / total);
}

/** Runs every check against the target; the process it started (if any) is stopped before this resolves. */
export async function runCheck(target: CheckTarget, options: CheckOptions = {}): Promise<CheckReport> {
  const http = target.kind === "url" || options.http === true;
  const tripwire = target.kind === "url" ? undefined : await UpstreamTripwire.start();
  try {
    const started = await startTarget(target, { http, upstream: tripwire?.url ?? "http://127.0.0.1:9" });
    const context: CheckContext = {
      connection: started.connection,
      ...(started.stdio ? { stdio: started.stdio } : {}),
      ...(started.url ? { url: started.url } : {}),
      ...(tripwire ? { tripwire } : {}),
    };
    const results: CheckResult[] = [];
    try {
      for (const check of CHECKS) {
        if (check.transport && check.transport !== started.connection.transport) continue;
        let outcome;
        try {
          outcome = await check.run(context);
        } catch (error) {
          outcome = { ok: false, message: `the check itself failed: ${(error as Error).message}` };
        }
        const result: CheckResult =
          "skipped" in outcome
            ? {
                id: check.id,
                ok: true,
                skipped: true,
                message: `not applicable: ${outcome.skipped}`,
                weight: check.weight,
              }
            : { id: check.id, ok: outcome.ok, message: outcome.message, weight: check.weight };
        results.push(result);
        options.onResult?.(result);
      }
    } finally {
      await started.stop();
    }
    const info = context.serverInfo;
    const failed = results.some((r) => !r.ok);
    return {
      score: scoreOf(results),
      checks: results,
      transport: started.connection.transport,
      ...(info && typeof info.name === "string" && typeof info.version === "string"
        ? { server: { name: info.name, version: info.version } }
        : {}),
      ...(failed ? { serverOutput: started.output().slice(-20) } : {}),
    };
  } finally {
    await tripwire?.stop();
  }
}
