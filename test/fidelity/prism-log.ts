/**
 * Reading the JSON log of `prism-json.ts`: the records are split into requests (each starts with
 * "Request received", which carries the parsed request) and each request is judged.
 */

/** One pino record as Prism writes it. */
export interface PrismRecord {
  level: string;
  name?: string;
  msg: string;
  input?: {
    method: string;
    url: { path: string; query?: Record<string, unknown> };
    headers?: Record<string, string>;
    body?: unknown;
  };
}

/** How Prism judged one request. */
export type RequestVerdict =
  /** The request passed validation and Prism answered from the spec. */
  | "accepted"
  /** Prism found the request itself wrong (a violation, a security failure, 406, 415, unknown route). */
  | "refused"
  /** The request was fine (or could not be judged) but Prism failed on its own side. */
  | "prism-limitation";

/** One request in the log, with what Prism said about it. */
export interface PrismRequestLog {
  method: string;
  path: string;
  query: Record<string, unknown>;
  contentType?: string;
  accept?: string;
  verdict: RequestVerdict;
  /** Violation texts (request side) or the error that ended the request. */
  problems: string[];
  /** Mock-side problems (response violations, serialisation), kept for the report. */
  limitations: string[];
  /** Whether the log already holds the end of this request (a response or an error). */
  complete: boolean;
}

/** Parses JSON lines; lines that are not JSON records are skipped. */
export function parseRecords(lines: string[]): PrismRecord[] {
  const records: PrismRecord[] = [];
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    try {
      const record = JSON.parse(line) as PrismRecord;
      if (typeof record.msg === "string") records.push(record);
    } catch {
      // a partial or foreign line
    }
  }
  return records;
}

// Prism's error types (problem+json `type` suffixes) that mean the request itself was wrong.
const REQUEST_ERRORS = [
  "UNPROCESSABLE_ENTITY",
  "UNAUTHORIZED",
  "NOT_ACCEPTABLE",
  "INVALID_CONTENT_TYPE",
  "NO_PATH_MATCHED_ERROR",
  "NO_METHOD_MATCHED_ERROR",
  "NO_SERVER_MATCHED_ERROR",
  "NO_SERVER_CONFIGURATION_PROVIDED_ERROR",
];

/** Groups records into requests and judges each one. */
export function prismRequests(records: PrismRecord[]): PrismRequestLog[] {
  const requests: PrismRequestLog[] = [];
  let current: (PrismRequestLog & { passed: boolean; failed: boolean; validatorErrors: string[] }) | undefined;
  const finish = (): void => {
    if (!current) return;
    const { passed, failed, validatorErrors, ...rest } = current;
    // Violation lines carry the location (request.query.x); the validator's own lines come next,
    // and the error that ended the request only when neither was logged.
    const violations = rest.problems.filter((p) => p.startsWith("request"));
    if (violations.length > 0) rest.problems = violations;
    else if (failed && validatorErrors.length > 0) rest.problems = validatorErrors;
    if (rest.verdict === "accepted" && (failed || rest.problems.length > 0)) rest.verdict = "refused";
    if (rest.verdict === "accepted" && !passed) rest.verdict = "prism-limitation";
    if (rest.verdict === "accepted" && rest.limitations.length > 0) rest.verdict = "prism-limitation";
    requests.push(rest);
    current = undefined;
  };
  for (const record of records) {
    if (record.msg === "Request received" && record.input) {
      finish();
      const headers = record.input.headers ?? {};
      current = {
        method: record.input.method,
        path: record.input.url.path,
        query: record.input.url.query ?? {},
        ...(headers["content-type"] ? { contentType: headers["content-type"] } : {}),
        ...(headers.accept ? { accept: headers.accept } : {}),
        verdict: "accepted",
        problems: [],
        limitations: [],
        complete: false,
        passed: false,
        failed: false,
        validatorErrors: [],
      };
      continue;
    }
    if (!current) continue;
    const msg = record.msg;
    if (msg.startsWith("The request passed the validation rules")) current.passed = true;
    else if (msg === "Request did not pass the validation rules") current.failed = true;
    else if (record.name === "VALIDATOR" && record.level === "error" && !msg.startsWith("Violation:"))
      current.validatorErrors.push(msg);
    else if (msg.startsWith("Violation: request") && record.level === "error")
      current.problems.push(msg.slice("Violation: ".length));
    else if (msg.startsWith("Violation: response") && record.level === "error")
      current.limitations.push(msg.slice("Violation: ".length));
    else if (/^> Responding with "\d{3}"/.test(msg)) current.complete = true;
    else if (msg.startsWith("Request terminated with error")) {
      current.complete = true;
      const type = /errors#([A-Z_]+)/.exec(msg)?.[1] ?? "";
      if (REQUEST_ERRORS.includes(type)) {
        current.verdict = "refused";
        current.problems.push(
          msg.replace(/^Request terminated with error: https:\/\/stoplight\.io\/prism\/errors#/, ""),
        );
      } else
        current.limitations.push(
          msg.replace(/^Request terminated with error: https:\/\/stoplight\.io\/prism\/errors#/, ""),
        );
    }
  }
  finish();
  return requests;
}
