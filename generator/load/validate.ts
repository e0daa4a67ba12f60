/**
 * Validation of the document against the OpenAPI schema (swagger-parser). It only ever produces
 * warnings, and on a big spec it is the slowest part of loading, so `generate` runs it beside the
 * later stages: in a worker thread over the same JSON text (validate-worker.ts) when the document is
 * big, in this thread when it is small (a worker costs more than it saves there).
 */
import { Worker } from "node:worker_threads";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { Codes, type Diagnostic } from "../diagnostics.js";

/** Documents at least this long (JSON characters) are validated in a worker thread. */
export const WORKER_MIN_CHARS = 1_000_000;

/** At most this many schema violations are reported one by one. */
const LIMIT = 20;
const HELP = "The spec does not follow the OpenAPI schema here; generation goes on, but check the result.";

/** swagger-parser's schema validation failures of `document` as warnings with pointers (the document is consumed). */
export async function validationFindings(document: Record<string, unknown>): Promise<Diagnostic[]> {
  try {
    await SwaggerParser.validate(document as unknown as OpenAPI.Document, {
      resolve: { external: false },
      validate: { schema: true, spec: true },
    } as SwaggerParser.Options);
    return [];
  } catch (error) {
    const warn = (message: string, pointer?: string): Diagnostic => ({ code: Codes.specInvalid, severity: "warning", message, pointer, help: HELP });
    const details = (error as { details?: Array<{ instancePath?: string; message?: string; params?: unknown }> }).details;
    if (!Array.isArray(details) || details.length === 0) return [warn((error as Error).message.split("\n")[0] ?? String(error))];
    const findings = details.slice(0, LIMIT).map((detail) => warn(`Invalid: ${detail.message ?? "schema violation"}${formatParams(detail.params)}`, `#${detail.instancePath ?? ""}`));
    if (details.length > LIMIT) findings.push({ code: Codes.specInvalid, severity: "warning", message: `…and ${details.length - LIMIT} more schema violations.`, pointer: undefined, help: undefined });
    return findings;
  }
}

function formatParams(params: unknown): string {
  if (!params || typeof params !== "object") return "";
  const p = params as Record<string, unknown>;
  if (typeof p.additionalProperty === "string") return ` (unexpected "${p.additionalProperty}")`;
  if (typeof p.missingProperty === "string") return ` (missing "${p.missingProperty}")`;
  if (Array.isArray(p.allowedValues)) return ` (allowed: ${p.allowedValues.join(", ")})`;
  return "";
}

/** A validation under way. */
export interface BackgroundValidation {
  /** The findings; never rejects (a failed validation run is itself a warning). */
  findings: Promise<Diagnostic[]>;
}

/** Starts validating the document given as JSON text; see the module comment for where it runs. */
export function validateInBackground(json: string): BackgroundValidation {
  if (json.length < WORKER_MIN_CHARS) {
    return { findings: validationFindings(JSON.parse(json) as Record<string, unknown>) };
  }
  const findings = new Promise<Diagnostic[]>((resolve) => {
    const worker = new Worker(new URL("./validate-worker.js", import.meta.url), { workerData: json });
    let settled = false;
    const settle = (value: Diagnostic[]) => {
      if (!settled) resolve(value);
      settled = true;
    };
    worker.once("message", (value: Diagnostic[]) => settle(value));
    worker.once("error", (error) =>
      settle([{ code: Codes.specInvalid, severity: "warning", message: `The spec could not be validated: ${error.message.split("\n")[0]}`, pointer: undefined, help: HELP }]),
    );
    worker.once("exit", () => settle([{ code: Codes.specInvalid, severity: "warning", message: "The spec could not be validated (the validation worker stopped).", pointer: undefined, help: HELP }]));
  });
  return { findings };
}
